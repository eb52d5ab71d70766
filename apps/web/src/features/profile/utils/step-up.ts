import type { RegisterOptions } from 'react-hook-form';
import { messages } from '@terrafund/contracts';

export type StepUpKind = 'password' | 'code';

/** Which proof the server asks of this member before data or the account leaves: the 2FA code when 2FA is on. */
export const stepUpKindOf = (user: { twoFactorEnabled: boolean }): StepUpKind => (user.twoFactorEnabled ? 'code' : 'password');

/** The browser's own check before asking the server: something typed, and for a code, six digits. */
export function stepUpRules(kind: StepUpKind): RegisterOptions<{ password: string; code: string }, StepUpKind> {
  if (kind === 'code') {
    return {
      validate: (value: string) => /^\d{6}$/.test(value.replace(/\s+/g, '')) || messages.twoFactor.codeRequired,
    };
  }
  return { validate: (value: string) => value.length > 0 || messages.validation.passwordRequired };
}

/** The body's step-up: only the proof this account is asked for (the code without the spaces an app shows). */
export function stepUpBody(kind: StepUpKind, values: { password: string; code: string }): { password: string } | { code: string } {
  return kind === 'code' ? { code: values.code.replace(/\s+/g, '') } : { password: values.password };
}

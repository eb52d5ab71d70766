import { useEffect, useRef } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { useT } from '@/lib/i18n';
import type { StepUpKind } from '../utils/step-up';

/**
 * The step-up asked again before the data export and closing (apps/api step-up.ts): the password, or the current
 * 6-digit code of the authenticator app when two-factor sign-in is on (a recovery code is not accepted there).
 */
export function StepUpField({ kind, error, registration }: { kind: StepUpKind; error?: string; registration: UseFormRegisterReturn }) {
  const { t, say } = useT('profile');
  const shown = error && say(error);
  if (kind === 'code') {
    return (
      <FormField label={t('stepUp.code')} error={shown} hint={t('stepUp.codeHint')}>
        {(control) => (
          <Input {...control} {...registration} inputMode="numeric" autoComplete="one-time-code" maxLength={7} placeholder="123456" />
        )}
      </FormField>
    );
  }
  return (
    <FormField label={t('stepUp.password')} error={shown} hint={t('stepUp.passwordHint')}>
      {(control) => <PasswordInput {...control} {...registration} autoComplete="current-password" />}
    </FormField>
  );
}

/**
 * The button that opened a step-up form gets the focus back when the form closes (Cancel, or done), so a keyboard
 * user is not dropped at the top of the page.
 */
export function useReturnFocus(open: boolean) {
  const opener = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return opener;
}

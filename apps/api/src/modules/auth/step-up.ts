import { messages, STEP_UP_FAILURES_LIMIT, STEP_UP_FAILURES_WINDOW_SECONDS } from '@terrafund/contracts';
import type { UserRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { verifyPassword } from '../../lib/password';
import { secondsUntil, tooManyRequests } from '../../lib/rate-limiter';
import { recordLoginFailure } from './login-throttle';
import { matchingStep } from './two-factor.service';

/**
 * The step-up before money or data leaves an account (withdrawals, the data export, closing it): the password on an
 * account without two-factor authentication, a current TOTP code on one with it (a recovery code is not enough
 * here: it is meant for signing in when the phone is lost, not for moving money). A session alone, stolen or left
 * open, therefore cannot empty the wallet.
 *
 * Failures count with the sign-in failures (so a guesser gains nothing by switching between the two) and on their
 * own account-wide counter: STEP_UP_FAILURES_LIMIT wrong in STEP_UP_FAILURES_WINDOW_SECONDS answer 429. A code is
 * checked for being current but not spent: the session already proved the sign-in, so the code the member signed
 * in with a moment ago still confirms a withdrawal (the step-up guards against a session without its owner, and a
 * code seen over the owner's shoulder is useless without the session).
 */
export type StepUp = { password?: string | undefined; code?: string | undefined };

const failureKey = (userId: string) => `step-up-fail:${userId}`;

export async function verifyStepUp(deps: Deps, user: UserRow, ip: string, body: StepUp): Promise<void> {
  const now = deps.clock.now().getTime();
  const [window] = await deps.throttles.peek([failureKey(user.id)]);
  if (window && window.count >= STEP_UP_FAILURES_LIMIT) throw tooManyRequests(secondsUntil(window.resetAt, now));

  const field = user.twoFactorEnabledAt && user.twoFactorSecret ? 'code' : 'password';
  const accepted = field === 'code' ? acceptCode(deps, user, body.code) : await acceptPassword(user, body.password);
  if (accepted) return;

  const [hit] = await Promise.all([
    deps.throttles.hit(failureKey(user.id), STEP_UP_FAILURES_WINDOW_SECONDS),
    recordLoginFailure(deps, user.email, ip),
  ]);
  if (hit.count > STEP_UP_FAILURES_LIMIT) throw tooManyRequests(secondsUntil(hit.resetAt, now));
  const message = field === 'code' ? messages.stepUp.codeInvalid : messages.stepUp.passwordIncorrect;
  throw new AppError('VALIDATION_ERROR', message, { fields: { [field]: message } });
}

async function acceptPassword(user: UserRow, password: string | undefined) {
  if (!password) return false;
  return verifyPassword(user.passwordHash, password);
}

function acceptCode(deps: Deps, user: UserRow, code: string | undefined) {
  const typed = (code ?? '').replace(/\s+/g, '');
  if (!/^\d{6}$/.test(typed) || !user.twoFactorSecret) return false;
  return matchingStep(deps.secrets.openTotpSecret(user.twoFactorSecret), typed, deps.clock.now()) !== null;
}

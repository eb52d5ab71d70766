import { passwordStrengthProblem, personalInputs } from '@terrafund/contracts/password-strength';
import { AppError } from '../../lib/app-error';

/**
 * The strength rule at sign-up, change and reset (the same function the web forms run): a password zxcvbn
 * scores 0 or 1 is a 400 with zxcvbn's reason on the form's field. Sign-in never checks it, so existing
 * accounts keep working whatever their password.
 */
export function assertStrongPassword(
  password: string,
  field: 'password' | 'newPassword',
  person: { email?: string; firstName?: string; lastName?: string } = {},
) {
  const problem = passwordStrengthProblem(password, personalInputs(person));
  if (problem) throw new AppError('VALIDATION_ERROR', problem, { fields: { [field]: problem } });
}

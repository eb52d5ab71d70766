import { describe, expect, it } from 'vitest';
import { changePasswordFormFor, registerForm, resetPasswordForm } from './auth';
import { messages } from './messages';
import { passwordStrengthProblem, personalInputs } from './password-strength';

/** The issue's four: each takes zxcvbn under a million guesses. */
const ISSUE_EXAMPLES = ['Password123!', 'Passw0rd!', 'Qwerty123456!', 'Iloveyou1!'];
/** Single entries of the common lists: passwords, words, names, l33t and reversed spellings of them. */
const SINGLE_ENTRIES = ['password', 'iloveyou', 'football', 'qwertyuiop', '12345678', 'P@ssw0rd', 'drowssap', 'sunshine', 'elephant', 'Washington', 'extraordinary'];
const STRONG = ['Tf-correct-horse-9', 'Quiet-Lantern-47!', 'correct horse battery', 'long-enough-1', 'a-long-enough-password', 'correct-horse-battery-staple'];

describe('the password strength rule (zxcvbn score 0 or 1 is refused)', () => {
  it.each([...ISSUE_EXAMPLES, ...SINGLE_ENTRIES, 'abcdefgh', 'aaaaaaaa'])('refuses %s with a reason', (password) => {
    expect(passwordStrengthProblem(password)).toEqual(expect.any(String));
  });

  it.each(STRONG)('accepts %s', (password) => {
    expect(passwordStrengthProblem(password)).toBeUndefined();
  });

  it('gives zxcvbn\'s own warning and suggestions as the reason', () => {
    expect(passwordStrengthProblem('Password123!')).toBe(
      'This is similar to a commonly used password. Add more words that are less common. Capitalize more than the first letter.',
    );
  });

  it('falls back to a fixed reason where zxcvbn has no warning', () => {
    // A common English word: zxcvbn suggests, but has no warning of its own.
    expect(passwordStrengthProblem('wonderful')).toBe(`${messages.validation.passwordTooWeak} Add more words that are less common.`);
  });

  it('refuses what only repeats the member\'s own address or names', () => {
    const person = { email: 'bartholomew.quist@example.com', firstName: 'Bartholomew', lastName: 'Quist' };
    expect(personalInputs(person)).toEqual(['bartholomew.quist@example.com', 'bartholomew.quist', 'Bartholomew', 'Quist']);
    expect(passwordStrengthProblem('BartholomewQuist')).toBeUndefined();
    expect(passwordStrengthProblem('BartholomewQuist', personalInputs(person))).toEqual(expect.any(String));
    expect(passwordStrengthProblem('bartholomew.quist@example.com', personalInputs(person))).toEqual(expect.any(String));
  });

  it('stays quick on an adversarial password (the server runs it synchronously)', () => {
    passwordStrengthProblem('warm-up-the-lists');
    const started = performance.now();
    for (const password of ['aB3$'.repeat(32), '4@3!0$1|7+'.repeat(12), 'P@$$w0rd'.repeat(16)]) passwordStrengthProblem(password);
    // Seconds each without the bounds (l33t substitutions, length looked at); a few hundred ms at most with them.
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('the forms that set a password run the same rule', () => {
  const issuesOf = async (schema: { safeParseAsync: (v: unknown) => Promise<{ success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }> }, value: unknown) =>
    (await schema.safeParseAsync(value)).error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? [];

  const registration = (password: string) => ({
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '',
    password,
    confirmPassword: password,
    terms: true,
  });

  it.each(ISSUE_EXAMPLES)('refuses %s on the password field at sign-up, on newPassword at reset and change', async (password) => {
    const reason = passwordStrengthProblem(password, personalInputs({ email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' }));
    expect(await issuesOf(registerForm, registration(password))).toEqual([['password', reason]]);
    expect(await issuesOf(resetPasswordForm, { newPassword: password, confirmPassword: password })).toEqual([['newPassword', passwordStrengthProblem(password)]]);
    const change = changePasswordFormFor({ email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' });
    expect(await issuesOf(change, { currentPassword: 'old-one', newPassword: password, confirmPassword: password })).toEqual([['newPassword', reason]]);
  });

  it('checks the sign-up password against the names typed above it', async () => {
    const form = { ...registration('BartholomewQuist'), firstName: 'Bartholomew', lastName: 'Quist' };
    expect((await issuesOf(registerForm, form)).map(([path]) => path)).toEqual(['password']);
  });

  it('leaves a too-short password to its own message, and a strong one alone', async () => {
    expect(await issuesOf(registerForm, registration('short'))).toEqual([['password', messages.validation.passwordTooShort]]);
    expect(await issuesOf(registerForm, registration('Tf-correct-horse-9'))).toEqual([]);
  });

  it('still names the other fields\' problems beside a weak password', async () => {
    const issues = await issuesOf(registerForm, { ...registration('Password123!'), email: 'not-an-address', confirmPassword: 'different' });
    expect(issues.map(([path]) => path).sort()).toEqual(['confirmPassword', 'email', 'password']);
  });
});

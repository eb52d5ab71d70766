import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary, translations } from '@zxcvbn-ts/language-en';
import { messages } from './messages';

/**
 * The strength half of the password rule (docs/security.md, Guessable passwords), one source for the API and
 * the browser. It is its own entry (`@terrafund/contracts/password-strength`) because zxcvbn's word lists are
 * large: the API imports it directly, the web app only through `loadPasswordStrength()`, so the lists reach
 * only the forms that set a password, never the landing or the sign-in page.
 */

/** zxcvbn's score 2 is 10^6 guesses or more: 0 and 1 are what an online guesser tries first. */
export const PASSWORD_MIN_SCORE = 2;

/** Built on first use: indexing the word lists takes a moment, and only setting a password needs them. */
let estimator: ZxcvbnFactory | undefined;
const zxcvbn = () =>
  (estimator ??= new ZxcvbnFactory({
    dictionary: { ...commonDictionary, ...englishDictionary },
    graphs: adjacencyGraphs,
    translations,
    // The check runs synchronously on the server, so its worst case is bounded: the l33t matcher's variants
    // and the length looked at are what make an adversarial password cost seconds instead of milliseconds
    // (measured in docs/decisions.md). Five substitutions still see "P@$$w0rd"; a longer password is judged by
    // its first 64 characters.
    l33tMaxSubstitutions: 5,
    maxLength: 64,
  }));

/** What the member typed about themselves: a password that only repeats it is guessed first. */
export function personalInputs(person: { email?: string; firstName?: string; lastName?: string }): string[] {
  const email = person.email?.trim().toLowerCase() ?? '';
  return [email, email.split('@')[0] ?? '', person.firstName ?? '', person.lastName ?? ''].map((s) => s.trim()).filter(Boolean);
}

/**
 * Why `password` is refused (zxcvbn's own warning and suggestions, or the fixed fallback when it gives none),
 * or undefined when it scores 2 or more. Length is the schemas' rule (passwordField), not this one's.
 */
export function passwordStrengthProblem(password: string, userInputs: readonly string[] = []): string | undefined {
  const result = zxcvbn().check(password, [...userInputs]);
  if (result.score >= PASSWORD_MIN_SCORE) return undefined;
  const v = messages.validation;
  const advice = result.feedback.suggestions.length > 0 ? result.feedback.suggestions : [v.passwordAdvice];
  return [result.feedback.warning || v.passwordTooWeak, ...advice].join(' ');
}

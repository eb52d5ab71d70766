import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { messages } from '@terrafund/contracts';
import { AppError } from './app-error';

/** Built on first use: the word lists take a moment to index, and only sign-up and password changes need them. */
let estimator: ZxcvbnFactory | undefined;

/**
 * Whether a password is one an attacker tries first, judged offline by zxcvbn over its common-password and
 * common-word lists (no network): refused when the whole password is one dictionary word or list entry
 * (l33t and reversed spellings included, and the member's own name or address), or when zxcvbn scores it 0
 * (under a thousand guesses: sequences, repeats, keyboard rows).
 */
export function isTooGuessable(password: string, userInputs: string[] = []): boolean {
  estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  const result = estimator.check(password, userInputs.filter(Boolean));
  if (result.score === 0) return true;
  const [only, ...rest] = result.sequence;
  return rest.length === 0 && only?.pattern === 'dictionary';
}

/** Refuses a guessable password as a 400 on the form's field, with the reason. */
export function assertPasswordNotGuessable(password: string, field: 'password' | 'newPassword', userInputs: string[] = []) {
  if (isTooGuessable(password, userInputs)) {
    const message = messages.validation.passwordTooCommon;
    throw new AppError('VALIDATION_ERROR', message, { fields: { [field]: message } });
  }
}

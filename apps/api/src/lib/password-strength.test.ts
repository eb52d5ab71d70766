import { describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { AppError } from './app-error';
import { assertPasswordNotGuessable, isTooGuessable } from './password-strength';

describe('guessable passwords (zxcvbn, offline common lists)', () => {
  it.each(['password123', '12345678', 'qwertyuiop', 'iloveyou', 'Password123', 'P@ssw0rd', 'drowssap', 'abcdefgh', 'aaaaaaaa', '11111111'])(
    'refuses %s',
    (password) => {
      expect(isTooGuessable(password)).toBe(true);
    },
  );

  it.each(['Tf-correct-horse-9', 'Quiet-Lantern-47!', 'correct horse battery', 'long-enough-1', 'analytical-engine'])('accepts %s', (password) => {
    expect(isTooGuessable(password)).toBe(false);
  });

  it('refuses a password that is only the member\'s own name or address', () => {
    expect(isTooGuessable('Wilhelmina', ['wilhelmina.z@example.com', 'Wilhelmina'])).toBe(true);
    expect(isTooGuessable('wilhelmina.z@example.com', ['wilhelmina.z@example.com'])).toBe(true);
    expect(isTooGuessable('Wilhelmina', [])).toBe(false);
  });

  it('answers a 400 with the reason on the field the form names', () => {
    const error = (() => {
      try {
        assertPasswordNotGuessable('iloveyou', 'newPassword');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: messages.validation.passwordTooCommon,
      fields: { newPassword: messages.validation.passwordTooCommon },
    });
    expect(() => assertPasswordNotGuessable('Quiet-Lantern-47!', 'password')).not.toThrow();
  });
});

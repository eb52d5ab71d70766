import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import toast from 'react-hot-toast';
import { errorMessage, isApiError } from './api-client';

/**
 * Puts a server failure under the form fields it is about, and says whether it did: the server's own
 * `fields` first, then any field whose keyword the message contains (docs/product.md §2.7 The session in the browser: a message
 * containing "email" goes to the e-mail field, one containing "password" to the password field).
 */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  /** Each field with the word that ties a message to it, or null to take only the server's own `fields`. */
  keywords: Partial<Record<Path<T>, string | null>>,
): boolean {
  if (!isApiError(error)) return false;
  let applied = false;
  const fieldNames = Object.keys(keywords) as Path<T>[];

  for (const name of fieldNames) {
    const fieldMessage = error.fields?.[name];
    if (fieldMessage) {
      setError(name, { type: 'server', message: fieldMessage });
      applied = true;
    }
  }
  if (applied || !error.serverMessage) return applied;

  const text = error.serverMessage.toLowerCase();
  for (const name of fieldNames) {
    const keyword = keywords[name];
    if (keyword && text.includes(keyword.toLowerCase())) {
      setError(name, { type: 'server', message: error.serverMessage });
      applied = true;
    }
  }
  return applied;
}

/**
 * A form mutation's `onError`: the failure under the fields it is about (`applyServerFieldErrors`), and a toast
 * with the server's message, or `fallback` without one.
 */
export function onFormError<T extends FieldValues>(
  setError: UseFormSetError<T>,
  keywords: Partial<Record<Path<T>, string | null>>,
  fallback: string,
) {
  return (error: unknown) => {
    applyServerFieldErrors(error, setError, keywords);
    toast.error(errorMessage(error, fallback));
  };
}

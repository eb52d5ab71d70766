import { mailMessages } from '../mail-messages';
import { messages } from '../messages';

/**
 * A namespace's texts in another language: the same keys as the English one, every leaf a string. Plural forms
 * are keys with i18next's suffixes (`count_one`, `count_other`, and `count_many` where the language has it).
 */
export type Translation<T> = {
  [K in keyof T]: T[K] extends string ? string : T[K] extends (...args: never[]) => string ? string : Translation<T[K]>;
};

/** A tree of texts: what a catalogue namespace is. */
export interface TextTree {
  [key: string]: string | TextTree;
}

type Template = ((...values: never[]) => string) & { template: string };
const isTemplate = (value: unknown): value is Template => typeof value === 'function' && typeof (value as Template).template === 'string';

/** `messages` (messages.ts) as a catalogue namespace: each message with values becomes its `{name}` template. */
function textsOf(tree: object): TextTree {
  return Object.fromEntries(
    Object.entries(tree).map(([key, value]) => [key, isTemplate(value) ? value.template : typeof value === 'string' ? value : textsOf(value as object)]),
  );
}

/** Every message object the API and the forms say things from: messages.ts, and the admin mail screen's (mail.ts). */
const allMessages = { ...messages, undeliverableMail: mailMessages };

/** The English `messages` namespace: messages.ts itself, the spec's texts, quoted once. */
export const englishMessages = textsOf(allMessages) as Translation<typeof allMessages>;

/** Every leaf of a text tree as `a.b.c` → text. */
export function flattenTexts(tree: TextTree, prefix = ''): [key: string, text: string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : flattenTexts(value, `${prefix}${key}.`),
  );
}

/** The `{name}` placeholders of a text, sorted. */
export const placeholdersOf = (text: string): string[] => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))].sort();

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const exactKeys = new Map<string, string>();
const patterns: { key: string; pattern: RegExp; names: string[] }[] = [];
for (const [key, text] of flattenTexts(englishMessages as unknown as TextTree)) {
  const names = [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (names.length === 0) {
    if (!exactKeys.has(text)) exactKeys.set(text, key);
    continue;
  }
  const source = text.split(/\{\w+\}/).map(escapeRegExp).join('(.+?)');
  patterns.push({ key, pattern: new RegExp(`^${source}$`, 's'), names });
}

/**
 * Which message of messages.ts an English text is, and its values: how a text that was built in English (an error
 * thrown with `messages.auth.resendCooldown(30)`, a zod issue) is said again in another language at the edge (the
 * API's error answers, the web app's form errors). Undefined for a text that is not one of them.
 */
export function messageKeyOf(text: string): { key: string; values: Record<string, string> } | undefined {
  const key = exactKeys.get(text);
  if (key) return { key, values: {} };
  for (const { key: templateKey, pattern, names } of patterns) {
    const match = pattern.exec(text);
    if (match) return { key: templateKey, values: Object.fromEntries(names.map((name, i) => [name, match[i + 1]!])) };
  }
  return undefined;
}

import { readFileSync } from 'node:fs';
import path from 'node:path';

type Texts = { [key: string]: string | Texts };
export type Language = 'en' | 'es' | 'fr';
const folder = path.resolve(process.cwd(), 'packages/contracts/src/i18n');

/**
 * A catalogue namespace's texts in a language (packages/contracts/src/i18n/<language>/<namespace>.json), by key:
 * the journeys in Spanish name what they press and read as the app does, so a text translated again moves them too.
 */
export function textsOf(language: Language, namespace: string): (key: string) => string {
  const texts = JSON.parse(readFileSync(path.join(folder, language, `${namespace}.json`), 'utf8')) as Texts;
  return (key) => {
    const text = key.split('.').reduce<string | Texts | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), texts);
    if (typeof text !== 'string') throw new Error(`no text ${language}/${namespace}:${key}`);
    return text;
  };
}

/** A mail's subject in any of the languages (`withdrawalConfirm`: its `subject` in mail.json), as a pattern. */
export function mailSubject(mail: string): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp((['en', 'es', 'fr'] as const).map((language) => escape(textsOf(language, 'mail')(`${mail}.subject`))).join('|'), 'i');
}

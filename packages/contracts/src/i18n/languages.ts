/**
 * The languages the product speaks (issue 35), how a visitor's is chosen, and the `Intl` locale each formats with.
 * English is the spec's language and the fallback of every text.
 */
export const LANGUAGES = ['en', 'es', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language named in itself, for the language menu. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Español', fr: 'Français' };

/** The browser's `localStorage` key (and the cookie) that remembers a visitor's choice. */
export const LANGUAGE_STORAGE_KEY = 'lang';

/** The locale `Intl` formats dates and numbers with: amounts stay in US dollars in every language. */
export const INTL_LOCALES: Record<Language, string> = { en: 'en-US', es: 'es-ES', fr: 'fr-FR' };

export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** The first of `preferences` (BCP 47 tags, best first: `fr-CA`, `es`) whose language the product speaks, else English. */
export function matchLanguage(preferences: readonly string[] | undefined): Language {
  for (const tag of preferences ?? []) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (isLanguage(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}

/**
 * The languages of an `Accept-Language` header, best first (RFC 9110 §12.5.4: by `q`, then in the order given;
 * `q=0` means "not this one"). Anything malformed is skipped, never thrown on.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .slice(0, 1000)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter(({ tag, weight }) => weight > 0 && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag))
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map(({ tag }) => tag);
}

/** The language to answer an `Accept-Language` header in. */
export const languageOfHeader = (header: string | undefined): Language => matchLanguage(acceptedLanguages(header));

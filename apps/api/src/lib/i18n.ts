import type { FastifyRequest } from 'fastify';
import { createI18n, DEFAULT_LANGUAGE, INTL_LOCALES, isLanguage, languageOfHeader, LANGUAGES, messageKeyOf, type Language } from '@terrafund/contracts/i18n';
import { resources } from '@terrafund/contracts/i18n/resources';

/** The server's one i18next instance, holding every language's catalogue (issue 35). */
export const i18n = createI18n(resources);

type Translator = ReturnType<typeof i18n.getFixedT>;

const fixed = Object.fromEntries(LANGUAGES.map((language) => [language, i18n.getFixedT(language)])) as Record<Language, Translator>;

/** A translator bound to `language`, for the mails' and the answers' texts. */
export const translatorFor = (language: Language): Translator => fixed[language];

/**
 * The language of a request's answer: the signed-in member's `locale` (the session check already loaded the user,
 * so it costs nothing), else the best match of `Accept-Language`, else English. The one place it is decided.
 */
export function requestLanguage(request: FastifyRequest): Language {
  const locale = request.auth?.user.locale;
  return isLanguage(locale) ? locale : languageOfHeader(request.headers['accept-language']);
}

const FIXED = /^-?\d+\.\d{2}$/;
const DOLLARS = /^(-?)\$(\d{1,3}(?:,\d{3})*)(\.\d{2})?$/;
const numberFormats = new Map<string, Intl.NumberFormat>();
const numberFormat = (language: Language, options: Intl.NumberFormatOptions) => {
  const key = `${language}:${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(INTL_LOCALES[language], options)));
  return format;
};

/**
 * An amount the API wrote the English way (`2500.00` as mails and notices carry it, `$1,234.50` as messages do),
 * the way `language` writes it (`2500,00`, `1.234,50 US$`; `1 234,50 $US`): amounts stay in US dollars. Any other
 * text is returned as it is, and English is never touched.
 */
export function localAmount(language: Language, text: string): string {
  if (language === DEFAULT_LANGUAGE) return text;
  if (FIXED.test(text)) return numberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(text));
  const dollars = DOLLARS.exec(text);
  if (!dollars) return text;
  const [, sign, whole, cents] = dollars;
  const digits = cents ? 2 : 0;
  return numberFormat(language, { style: 'currency', currency: 'USD', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
    Number(`${sign}${whole!.replaceAll(',', '')}${cents ?? ''}`),
  );
}

/**
 * A messages.ts text built in English (an AppError's, a zod issue's, a success answer's), said in `language`: found
 * by its English words (messageKeyOf), its values (amounts) said the language's way. The text itself in English, or
 * when it is not one of messages.ts's (docs/decisions.md, "Languages").
 */
export function say(language: Language, text: string): string {
  if (language === DEFAULT_LANGUAGE) return text;
  const found = messageKeyOf(text);
  if (!found) return text;
  const values = Object.fromEntries(Object.entries(found.values).map(([name, value]) => [name, localAmount(language, value)]));
  return fixed[language](`messages:${found.key}`, { ...values, defaultValue: text });
}

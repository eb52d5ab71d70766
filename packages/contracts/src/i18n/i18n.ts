import { createInstance, type i18n as I18n, type InitOptions, type TFunction } from 'i18next';
import { messageKeyOf } from './catalogue';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './languages';

/**
 * What every i18next instance of the product is set up with, in the browser and on the server: one `{name}`
 * placeholder style in every catalogue (as messages.ts writes them), English as the fallback of any missing key,
 * and no HTML escaping (React escapes what it draws; mails escape their own values).
 */
export const i18nextOptions = {
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  defaultNS: 'common',
  interpolation: { prefix: '{', suffix: '}', escapeValue: false },
  returnNull: false,
  returnEmptyString: false,
  initAsync: false,
} satisfies InitOptions;

/** An i18next instance holding `resources` (each language's catalogue), ready at once. */
export function createI18n(resources: InitOptions['resources'], language: Language = DEFAULT_LANGUAGE): I18n {
  const instance = createInstance({ ...i18nextOptions, resources, lng: language });
  void instance.init();
  return instance;
}

/**
 * A text built in English from messages.ts, said in the language of `t` (an error's message, a zod issue's): the
 * text itself when it is not one of messages.ts's (a provider's own words, a name).
 */
export function localizeMessage(t: TFunction, text: string): string {
  const found = messageKeyOf(text);
  if (!found) return text;
  return t(`messages:${found.key}`, { ...found.values, defaultValue: text });
}

import { createInstance } from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import {
  DEFAULT_LANGUAGE,
  englishMessages,
  i18nextOptions,
  isLanguage,
  LANGUAGE_STORAGE_KEY,
  localizeMessage,
  matchLanguage,
  type Catalogue,
  type Language,
} from '@terrafund/contracts/i18n';
import auth from '@terrafund/contracts/i18n/en/auth';
import common from '@terrafund/contracts/i18n/en/common';
import landing from '@terrafund/contracts/i18n/en/landing';
import layout from '@terrafund/contracts/i18n/en/layout';
import legal from '@terrafund/contracts/i18n/en/legal';

/**
 * The app's i18next (issue 35): English is the fallback of every key. The English texts of the public screens (the
 * landing and sign-in pages, the shared UI, the messages) are in the bundle; those of the member's and the admin's
 * screens load with the first of those screens (loadMemberTexts, app/router.tsx), and another language's catalogue
 * when it is chosen (loadLanguage), so a visitor downloads the texts of one language, and the landing page only
 * the texts it shows (issue 14: its JavaScript budget).
 */
export const i18n = createInstance({
  ...i18nextOptions,
  resources: { en: { messages: englishMessages, common, layout, landing, auth, legal } },
  lng: DEFAULT_LANGUAGE,
  partialBundledLanguages: true,
});
i18n.use(initReactI18next);
void i18n.init();

type MemberNamespace = Exclude<keyof Catalogue, 'messages' | 'common' | 'layout' | 'landing' | 'auth' | 'legal'>;

const memberTexts: Record<MemberNamespace, () => Promise<object>> = {
  dashboard: () => import('@terrafund/contracts/i18n/en/dashboard').then((module) => module.default),
  wallet: () => import('@terrafund/contracts/i18n/en/wallet').then((module) => module.default),
  kyc: () => import('@terrafund/contracts/i18n/en/kyc').then((module) => module.default),
  projects: () => import('@terrafund/contracts/i18n/en/projects').then((module) => module.default),
  profile: () => import('@terrafund/contracts/i18n/en/profile').then((module) => module.default),
  admin: () => import('@terrafund/contracts/i18n/en/admin').then((module) => module.default),
  mail: () => import('@terrafund/contracts/i18n/en/mail').then((module) => module.default),
};

let memberTextsLoaded: Promise<void> | undefined;

/** The English texts of the member's and the admin's screens (the fallback of every language), loaded once. */
export function loadMemberTexts(): Promise<void> {
  memberTextsLoaded ??= Promise.all(
    Object.entries(memberTexts).map(async ([namespace, load]) => {
      if (!i18n.hasResourceBundle('en', namespace)) i18n.addResourceBundle('en', namespace, await load(), true, true);
    }),
  ).then(() => undefined);
  return memberTextsLoaded;
}

const catalogues: Record<Exclude<Language, 'en'>, () => Promise<Partial<Catalogue>>> = {
  es: () => import('@terrafund/contracts/i18n/es').then((module) => module.es as Partial<Catalogue>),
  fr: () => import('@terrafund/contracts/i18n/fr').then((module) => module.fr as Partial<Catalogue>),
};

/** Loads a language's catalogue once (English is always there). */
export async function loadLanguage(language: Language): Promise<void> {
  if (language === 'en' || i18n.hasResourceBundle(language, 'messages')) return;
  const catalogue = await catalogues[language]();
  for (const [namespace, texts] of Object.entries(catalogue)) i18n.addResourceBundle(language, namespace, texts, true, true);
}

/** The language remembered in this browser, else the best match of the browser's languages, else English. */
export function preferredLanguage(): Language {
  return storedLanguage() ?? matchLanguage(typeof navigator === 'undefined' ? [] : navigator.languages);
}

/** The language chosen in this browser before (the language menu), if any. */
export function storedLanguage(): Language | undefined {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // Storage blocked: nothing was remembered.
  }
  return undefined;
}

/** The language the app speaks now. */
export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE);

/** Speaks `language` from now on (its catalogue loaded first), and tells the page (`<html lang>`). */
export async function switchLanguage(language: Language): Promise<void> {
  await loadLanguage(language);
  if (i18n.language !== language) await i18n.changeLanguage(language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

/**
 * Remembers the visitor's choice: in this browser (`localStorage`), and in a cookie that the server reads to send
 * the drawn pages in that language (apps/api/src/plugins/web.ts).
 */
export function rememberLanguage(language: Language) {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage blocked: the cookie still remembers it.
  }
  document.cookie = `${LANGUAGE_STORAGE_KEY}=${language}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

/** A namespace's `t`, and `say(text)`: a message of messages.ts built in English (a zod issue, say) in the language. */
export function useT(namespace: keyof Catalogue = 'common') {
  const { t } = useTranslation(namespace, { i18n });
  const say = (text: string) => localizeMessage(i18n.getFixedT(i18n.language), text);
  return { t, say, language: currentLanguage() };
}

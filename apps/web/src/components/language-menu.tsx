import { useContext, useEffect, useId, useRef } from 'react';
import { QueryClientContext } from '@tanstack/react-query';
import { GlobeIcon } from 'lucide-react';
import type { User } from '@terrafund/contracts';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from '@terrafund/contracts/i18n';
import { useAuth } from '@/lib/auth';
import { queryKeys } from '@/lib/query-keys';
import { getToken } from '@/lib/auth-storage';
import { cn } from '@/lib/cn';
import { currentLanguage, rememberLanguage, switchLanguage, useT } from '@/lib/i18n';

declare global {
  interface Window {
    /** A language chosen in a drawn page's menu before its app ran (index.html). */
    __languageChosen?: string;
  }
}

/** The user with the language the server keeps for them (issue 35), which older servers do not send. */
type UserWithLocale = User & { locale?: string };

/**
 * Speaks `language` from now on, at once, and remembers it: in this browser (localStorage and the cookie the server
 * picks the drawn pages by), and for a signed-in member on their account (`PATCH /users/profile {locale}`), which the
 * server then writes their mails and error messages in.
 */
export function useChooseLanguage() {
  // The landing page's header is drawn outside the app's providers in its tests: none of them is required here.
  const queryClient = useContext(QueryClientContext);
  return async (language: Language) => {
    await switchLanguage(language);
    rememberLanguage(language);
    const user = queryClient?.getQueryData<UserWithLocale>(queryKeys.profile());
    if (!getToken() || !user) return;
    queryClient?.setQueryData<UserWithLocale>(queryKeys.profile(), { ...user, locale: language });
    try {
      // Loaded here: the landing page, where nobody is signed in, does not carry the API client.
      const { api } = await import('@/lib/api-client');
      await api.patch('/users/profile', { locale: language });
    } catch {
      // Kept in this browser all the same; the account keeps its language until the next choice.
    }
  };
}

/**
 * The language menu of the top bars (the landing page's and the app's): a native select, so keyboards, screen readers
 * and phones handle it as they expect, drawn as a globe and the language's code to fit a top bar. Its name says
 * "Language" in the current language and in English, for a visitor who does not read the one shown. `labelled`: the
 * same menu with its name shown and the languages' names, for a phone's menu panel, where the top bar has no room.
 */
export function LanguageMenu({ className, labelled = false }: { className?: string; labelled?: boolean }) {
  const { t, language } = useT('common');
  const choose = useChooseLanguage();
  const id = useId();
  // A choice made in the drawn page's menu before the app ran (held by index.html's first script).
  const chooseRef = useRef(choose);
  useEffect(() => {
    const chosen = window.__languageChosen;
    window.__languageChosen = undefined;
    if (isLanguage(chosen) && chosen !== currentLanguage()) void chooseRef.current(chosen);
  }, []);
  const select = (
    <select
      id={id}
      data-language-menu=""
      value={language}
      onChange={(event) => {
        if (isLanguage(event.target.value)) void choose(event.target.value);
      }}
      className={
        labelled
          ? 'h-11 w-full cursor-pointer rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-white'
          : 'absolute inset-0 h-full w-full cursor-pointer appearance-none opacity-0'
      }
    >
      {LANGUAGES.map((code) => (
        <option key={code} value={code} lang={code}>
          {LANGUAGE_NAMES[code]}
        </option>
      ))}
    </select>
  );
  if (labelled) {
    return (
      <div className={cn('flex flex-col gap-1.5', className)}>
        <label htmlFor={id} className="flex items-center gap-2 text-sm font-medium text-slate-700 dark:text-slate-200">
          <GlobeIcon aria-hidden="true" className="h-4 w-4" />
          {t('languageMenu.label')}
        </label>
        {select}
      </div>
    );
  }
  return (
    <div
      className={cn(
        'relative inline-flex h-10 items-center gap-1 rounded-lg px-2 text-sm font-medium text-slate-600 transition-colors max-sm:h-11',
        'focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-emerald-500 hover:bg-slate-100 hover:text-slate-900',
        'dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white',
        className,
      )}
    >
      <GlobeIcon aria-hidden="true" className="h-5 w-5" />
      <span aria-hidden="true" className="uppercase">
        {language}
      </span>
      <label htmlFor={id} className="sr-only">
        {t('languageMenu.label')}
      </label>
      {select}
    </div>
  );
}

/**
 * A member who signs in speaks the language their account keeps (`locale`), when it is not the one this browser
 * speaks: once per sign-in, so a choice made later in the menu stands.
 */
export function FollowMemberLanguage() {
  const auth = useAuth();
  const user = auth.status === 'authenticated' ? (auth.user as UserWithLocale) : null;
  const followed = useRef<string | null>(null);
  const userId = user?._id ?? null;
  const locale = user?.locale;
  useEffect(() => {
    if (userId === null) {
      followed.current = null;
      return;
    }
    if (followed.current === userId) return;
    followed.current = userId;
    if (!isLanguage(locale) || locale === currentLanguage()) return;
    void switchLanguage(locale).then(() => rememberLanguage(locale));
  }, [userId, locale]);
  return null;
}

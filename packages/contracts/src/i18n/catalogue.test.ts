import { describe, expect, it } from 'vitest';
import { flattenTexts, localizeMessage, messageKeyOf, placeholdersOf, type TextTree } from '.';
import { createI18n } from './i18n';
import { acceptedLanguages, languageOfHeader, LANGUAGES, matchLanguage } from './languages';
import { resources } from './resources';
import { messages } from '../messages';

/** A plural form's key without its suffix: `count_one` and `count_many` are the same text as `count_other`. */
const baseKey = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');

const textsByKey = (tree: object) => {
  const texts = new Map<string, string[]>();
  for (const [key, text] of flattenTexts(tree as TextTree)) texts.set(baseKey(key), [...(texts.get(baseKey(key)) ?? []), text]);
  return texts;
};

describe('the catalogues', () => {
  const english = textsByKey(resources.en);

  it.each(LANGUAGES.filter((language) => language !== 'en'))('%s has every English key, and no other', (language) => {
    const translated = textsByKey(resources[language]);
    expect([...translated.keys()].filter((key) => !english.has(key)), 'extra keys').toEqual([]);
    expect([...english.keys()].filter((key) => !translated.has(key)), 'missing keys').toEqual([]);
  });

  it.each(LANGUAGES.filter((language) => language !== 'en'))('%s has the placeholders of each English text, and no other', (language) => {
    const translated = textsByKey(resources[language]);
    const wrong = [...english].flatMap(([key, texts]) => {
      const expected = placeholdersOf(texts.join(' '));
      return (translated.get(key) ?? []).filter((text) => placeholdersOf(text).join() !== expected.join() && placeholdersOf(text).some((p) => p !== 'count')).map((text) => `${key}: ${text}`);
    });
    expect(wrong).toEqual([]);
  });

  it.each(LANGUAGES.filter((language) => language !== 'en'))('%s translates: no text left empty', (language) => {
    expect(flattenTexts(resources[language] as unknown as TextTree).filter(([, text]) => text.trim() === '')).toEqual([]);
  });

  it('English keeps the spec\u2019s messages exactly', () => {
    expect(resources.en.messages.auth.invalidCredentials).toBe('Invalid email or password');
    expect(resources.en.messages.auth.resendCooldown).toBe('Please wait {seconds} seconds before requesting a new code');
    expect(messages.auth.resendCooldown(30)).toBe('Please wait 30 seconds before requesting a new code');
  });
});

describe('messages said again in another language', () => {
  it('finds the message and its values from its English text', () => {
    expect(messageKeyOf('Invalid email or password')).toEqual({ key: 'auth.invalidCredentials', values: {} });
    expect(messageKeyOf(messages.auth.tooManyRequests(42))).toEqual({ key: 'auth.tooManyRequests', values: { seconds: '42' } });
    expect(messageKeyOf('Something a provider said')).toBeUndefined();
  });

  it('says it in the language of the translator, English when the text is not a message', () => {
    const i18n = createI18n(resources, 'en');
    expect(localizeMessage(i18n.getFixedT('en'), messages.auth.tooManyRequests(42))).toBe(messages.auth.tooManyRequests(42));
    expect(localizeMessage(i18n.getFixedT('es'), 'Something a provider said')).toBe('Something a provider said');
  });
});

describe('choosing the language', () => {
  it('reads Accept-Language by weight, then order, skipping q=0 and what is malformed', () => {
    expect(acceptedLanguages('fr-CA;q=0.8, es;q=0.9, en;q=0, <script>, de')).toEqual(['de', 'es', 'fr-CA']);
    expect(languageOfHeader('fr-CA;q=0.8, es;q=0.9, de')).toBe('es');
    expect(languageOfHeader('de-DE, it')).toBe('en');
    expect(languageOfHeader(undefined)).toBe('en');
  });

  it('matches the browser\u2019s languages by their primary subtag', () => {
    expect(matchLanguage(['pt-BR', 'fr-BE'])).toBe('fr');
    expect(matchLanguage(['ES'])).toBe('es');
    expect(matchLanguage([])).toBe('en');
  });
});

import { describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { resources } from '@terrafund/contracts/i18n/resources';
import { localAmount, say } from './i18n';

describe('messages said again in the request’s language', () => {
  it('leaves English exactly as it was built, and a text that is not a message as it is', () => {
    expect(say('en', messages.privacy.closeBalance('$1,234.50'))).toBe(messages.privacy.closeBalance('$1,234.50'));
    expect(say('es', 'Something a provider said')).toBe('Something a provider said');
  });

  it('finds the message by its English words and fills its translation, amounts the language’s way', () => {
    expect(say('es', messages.auth.invalidCredentials)).toBe(resources.es.messages.auth.invalidCredentials);
    expect(say('fr', messages.privacy.closeBalance('$1,234.50'))).toBe(
      resources.fr.messages.privacy.closeBalance.replace('{amount}', '1\u202f234,50\u00a0$US'),
    );
    expect(say('es', messages.projects.minInvestment('$100'))).toBe('La inversión mínima es de 100\u00a0US$');
    expect(say('es', messages.withdrawals.invalidAddress('Bitcoin'))).toBe('Introduzca una dirección de Bitcoin válida');
  });

  it('says the API’s fixed amounts the language’s way, and nothing else', () => {
    expect(localAmount('en', '2500.00')).toBe('2500.00');
    expect(localAmount('es', '2500.00')).toBe('2500,00');
    expect(localAmount('es', '12500.50')).toBe('12.500,50');
    expect(localAmount('fr', '-$1,000')).toBe('-1\u202f000\u00a0$US');
    expect(localAmount('fr', 'Bitcoin')).toBe('Bitcoin');
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/builders';
import { callsTo, pendingPages, renderApp, signIn, mockApi } from '@/testing/test-utils';
import { switchLanguage } from '@/lib/i18n';

describe('the language menu (issue 35)', () => {
  afterEach(async () => {
    await switchLanguage('en');
    document.cookie = 'lang=; Path=/; Max-Age=0';
  });

  it('switches the landing page at once, and remembers the choice in localStorage and a cookie', async () => {
    mockApi({ 'GET /config': () => ({ body: { contactEmail: 'support@terrafund.example', contactPhone: '+1 (201) 555-0134' } }) });
    const { user } = renderApp('/');
    const menu = await screen.findByRole('combobox', { name: 'Language' });
    expect(within(menu).getAllByRole('option').map((option) => option.textContent)).toEqual(['English', 'Español', 'Français']);

    await user.selectOptions(menu, 'es');
    expect(await screen.findByRole('heading', { level: 1, name: /Sea propietario de una parte de inmuebles/ })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Idioma (Language)' })).toHaveValue('es');
    expect(document.documentElement.lang).toBe('es');
    expect(localStorage.getItem('lang')).toBe('es');
    expect(document.cookie).toContain('lang=es');
  });

  it('saves a signed-in member’s choice on the account', async () => {
    const fetchMock = signIn(buildUser(), { ...pendingPages.dashboard, 'PATCH /users/profile': () => ({ body: buildUser() }) });
    const { user } = renderApp('/dashboard');
    const bar = await screen.findByRole('banner');
    await user.selectOptions(within(bar).getByRole('combobox', { name: 'Language' }), 'fr');
    await waitFor(() => expect(callsTo(fetchMock, 'PATCH', '/users/profile')).toEqual([{ locale: 'fr' }]));
    expect(await within(bar).findByRole('combobox', { name: 'Langue (Language)' })).toHaveValue('fr');
    expect(screen.getByRole('navigation', { name: 'Navigation principale' })).toBeInTheDocument();
  });

  it('follows the language the account keeps when a member signs in', async () => {
    signIn({ ...buildUser(), locale: 'es' } as ReturnType<typeof buildUser>, pendingPages.dashboard);
    renderApp('/dashboard');
    expect(await screen.findByRole('navigation', { name: 'Principal' })).toBeInTheDocument();
    expect(localStorage.getItem('lang')).toBe('es');
  });
});

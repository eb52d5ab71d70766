import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/builders';
import { i18n, loadLanguage } from '@/lib/i18n';
import { pendingPages, renderApp, signIn, speaking } from '@/testing/test-utils';
import { tickDate } from './projection-plot';

const member = buildUser({ kycStatus: 'approved', kycVerified: true, membershipLevel: 'gold' });

async function speak(language: 'es' | 'fr' | 'en') {
  await loadLanguage(language);
  await i18n.changeLanguage(language);
}

describe('the dashboard in Spanish', { timeout: 20_000 }, () => {
  speaking('es');

  it('greets the member, names the cards and says what is available, in Spanish', async () => {
    signIn(member, {
      ...pendingPages.wallet,
      'GET /users/dashboard': () => ({
        body: { totalAssets: 2612.5, walletBalance: 1234.56, membership: 'gold', nextPayout: null, currentMembership: null },
      }),
      'GET /users/investment-performance': () => ({ body: [] }),
      'GET /projects': () => ({ body: [] }),
    });
    renderApp('/dashboard');

    expect(await screen.findByRole('heading', { name: 'Bienvenido de nuevo, Ada Lovelace' }, { timeout: 5000 })).toBeInTheDocument();
    const total = await screen.findByRole('group', { name: 'Activos totales' });
    expect(within(total).getByText('Membresía GOLD')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Saldo del monedero' })).getByText('Disponible para retirar')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Próximo pago' })).getByText('No hay ningún pago programado')).toBeInTheDocument();
    expect(screen.getByText('Su cuenta está verificada')).toBeInTheDocument();
    expect(await screen.findByText('No hay datos de proyección disponibles')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Periodo de la proyección' })).toBeInTheDocument();
  });

  it('writes the chart’s days in the language’s order and month names', async () => {
    expect(tickDate('2026-03-02')).toBe('02 mar');
    await speak('fr');
    expect(tickDate('2026-03-02')).toBe('02 mars');
    await speak('en');
    expect(tickDate('2026-03-02')).toBe('Mar 02');
  });
});

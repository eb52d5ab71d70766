import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/builders';
import { speaking } from '@/testing/test-utils';
import { openWalletAs } from '../testing/wallet-fixtures';

describe('the wallet in Spanish', { timeout: 20_000 }, () => {
  speaking('es');

  it('shows the membership, the balance, the history and the withdraw panel in Spanish', async () => {
    const { user } = await openWalletAs(buildUser({ balance: 1234.5, membershipLevel: 'gold', kycStatus: 'not_started', kycVerified: false }));

    expect(screen.getByRole('button', { name: 'Cambiar de plan' })).toBeInTheDocument();
    const membership = screen.getByRole('group', { name: 'Membresía actual' });
    expect(within(membership).getByText('Activa')).toBeInTheDocument();
    expect(within(membership).getByText('Fecha de inicio')).toBeInTheDocument();
    const balance = screen.getByRole('group', { name: 'Saldo del monedero' });
    expect(within(balance).getByText('Disponible para retirar')).toBeInTheDocument();
    const history = screen.getByRole('region', { name: 'Historial de transacciones' });
    expect(await within(history).findByText('No se han encontrado transacciones')).toBeInTheDocument();
    expect(within(history).getByRole('button', { name: 'Descargar extracto' })).toBeInTheDocument();

    await user.click(within(balance).getByRole('button', { name: 'Retirar' }));
    const panel = await screen.findByRole('dialog', { name: 'Retirar' });
    // A messages.ts text, said again in Spanish (say).
    expect(within(panel).getByText('Complete su verificación KYC antes de retirar fondos')).toBeInTheDocument();
    expect(within(panel).getByText('Para retirar fondos necesita una identidad verificada. Enviar la solicitud lleva unos minutos.')).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'Completar KYC ahora' })).toHaveAttribute('href', '/kyc');
  });

  it('offers the packs with their figures and features in Spanish, their names unchanged', async () => {
    await openWalletAs(buildUser({ membershipLevel: null }));

    expect(screen.getByRole('heading', { level: 1, name: 'Elegir un nuevo plan' })).toBeInTheDocument();
    const gold = await screen.findByRole('radio', { name: 'Gold' });
    const card = gold.closest('label') as HTMLElement;
    expect(within(card).getByText('Una experiencia de inversión prémium')).toBeInTheDocument();
    expect(within(card).getByText('Dividendos diarios')).toBeInTheDocument();
    expect(within(card).getByText('Soporte prioritario')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Depositar' })).toBeDisabled();
  });
});

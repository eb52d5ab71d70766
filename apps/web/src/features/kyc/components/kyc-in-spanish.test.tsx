import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/builders';
import { pendingPages, renderApp, signIn, speaking } from '@/testing/test-utils';

describe('KYC in Spanish', { timeout: 20_000 }, () => {
  speaking('es');

  it('walks the wizard in Spanish: steps, fields and countries', async () => {
    signIn(buildUser({ kycStatus: 'not_started' }), { ...pendingPages.wallet });
    const { user } = renderApp('/kyc');

    expect(await screen.findByRole('heading', { level: 1, name: 'Verificación KYC' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Datos personales' })).toBeInTheDocument();
    expect(screen.getAllByText(/Paso 1 de 4/).length).toBeGreaterThan(0);
    expect(screen.getByLabelText('Fecha de nacimiento')).toBeInTheDocument();
    const nationality = screen.getByLabelText('Nacionalidad');
    expect(within(nationality).getByRole('option', { name: 'Alemania' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Anterior' })).toBeDisabled();

    await user.click(within(screen.getByRole('navigation', { name: 'Pasos de la verificación' })).getByRole('button', { name: /Verificación de identidad/ }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Verificación de identidad' })).toBeInTheDocument();
    expect(within(screen.getByLabelText('Tipo de documento')).getByRole('option', { name: 'Pasaporte' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Siguiente' })).toBeInTheDocument();
  });
});

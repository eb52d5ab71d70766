import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '@/testing/builders';
import { pendingPages, renderApp, signIn, speaking } from '@/testing/test-utils';

describe('the profile in Spanish', { timeout: 20_000 }, () => {
  speaking('es');

  it('names every card and its fields in Spanish', async () => {
    signIn(buildUser({ phone: '' }), {
      ...pendingPages.profile,
      'GET /users/notification-preferences': () => ({
        body: { dividends: true, kyc: true, withdrawals: true, payments: false, membership: true, projects: false },
      }),
    });
    const { user } = renderApp('/profile');

    expect(await screen.findByRole('heading', { level: 1, name: 'Perfil' }, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Datos personales' })).toBeInTheDocument();
    expect(screen.getByText('No indicado')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Estado de la cuenta' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Autenticación en dos pasos' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cerrar mi cuenta' })).toBeInTheDocument();
    const mails = await screen.findByRole('list', { name: 'Notificaciones por correo' });
    expect(within(mails).getByText('Dividendos pagados')).toBeInTheDocument();
    expect(within(mails).getByText('Cuando un retiro se completa o falla.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Editar' }));
    expect(screen.getByLabelText('Correo electrónico')).toHaveAccessibleDescription('Su dirección de correo electrónico no se puede cambiar.');
    expect(screen.getByRole('button', { name: 'Guardar cambios' })).toBeInTheDocument();
  });
});

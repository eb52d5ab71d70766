import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminTransaction } from '@terrafund/contracts';
import { renderApp, signIn, speaking } from '@/testing/test-utils';
import { admin, buildHeldPayment } from '@/testing/builders';

const partial = buildHeldPayment();

describe('the admin screens in Spanish', { timeout: 20_000 }, () => {
  speaking('es');

  it('speak Spanish on the transactions screen: the held payments, their reasons, fields and the decision dialog', async () => {
    signIn(admin, {
      'GET /admin/transactions': () => ({ body: [] as AdminTransaction[] }),
      'GET /admin/payments/review': () => ({ body: [partial] }),
    });
    renderApp('/admin/transactions');

    const region = await screen.findByRole('region', { name: 'Pagos por revisar' }, { timeout: 5000 });
    const payment = await within(region).findByRole('listitem', { name: /Ada Lovelace/ });
    expect(within(payment).getByText('Pago parcial')).toBeInTheDocument();
    expect(within(payment).getByText('Ha llegado menos que el precio del paquete.')).toBeInTheDocument();
    expect(within(payment).getByText(/^Paquete Gold, /)).toBeInTheDocument();
    expect(within(payment).getByText('Esperado', { selector: 'dt' })).toBeInTheDocument();
    expect(within(payment).getByRole('link', { name: 'Abrir usuario' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Buscar transacciones' })).toHaveAttribute('placeholder', 'Buscar por nombre, correo, ID, tipo o estado');
    expect(await screen.findByText('Aún no hay transacciones')).toBeInTheDocument();

    await userEvent.click(within(payment).getByRole('button', { name: 'Rechazar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rechazar pago' });
    expect(within(dialog).getByText(/El pago se marca como fallido y no se activa ningún paquete\. El saldo de Ada Lovelace no cambia: reembolse el dinero en BTCPay Server\./)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancelar' })).toBeInTheDocument();
    expect(within(dialog).queryByText(/Reject|Cancel\b/)).not.toBeInTheDocument();
  });
});

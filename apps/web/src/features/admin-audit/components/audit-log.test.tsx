import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuditRow } from '@terrafund/contracts';
import { buildUser } from '@/testing/builders';
import { renderApp, signIn } from '@/testing/test-utils';

const admin = buildUser({ role: 'admin', email: 'admin@example.com', twoFactorEnabled: true });
const row = (n: number, action = 'kyc.approved'): AuditRow => ({
  id: `row-${n}`,
  at: new Date(Date.UTC(2026, 2, 20 - n, 10)).toISOString(),
  actorEmail: 'admin@example.com',
  action,
  targetType: 'user',
  targetId: `user-${n}`,
  details: { before: { kycStatus: 'pending' }, after: { kycStatus: 'approved' } },
});

describe('admin audit log', { timeout: 20_000 }, () => {
  it('lists entries newest first, loads more with the cursor, and filters by actor, action and dates', async () => {
    const queries: URLSearchParams[] = [];
    signIn(admin, {
      'GET /admin/audit': (_body, request) => {
        const params = new URL(request.url).searchParams;
        queries.push(params);
        if (params.get('action') === 'password.changed') return { body: [row(9, 'password.changed')] };
        if (params.get('cursor') === 'next-1') return { body: [row(3)] };
        return { body: [row(1), row(2)], headers: { 'X-Next-Cursor': 'next-1' } };
      },
    });
    const { user } = renderApp('/admin/audit');
    await screen.findByRole('heading', { level: 1, name: 'Audit log' }, { timeout: 5000 });
    const table = await screen.findByRole('table', { name: 'Audit log' });
    expect(within(table).getAllByText('kyc.approved')).toHaveLength(2);
    expect(within(table).getByText('user-1', { exact: false })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Audit log' })).getAllByText('kyc.approved')).toHaveLength(3));
    expect(queries.at(-1)!.get('cursor')).toBe('next-1');
    expect(await screen.findByText('No more entries')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Actor e-mail'), 'admin@example.com');
    await user.selectOptions(screen.getByLabelText('Action'), 'password.changed');
    await user.type(screen.getByLabelText('From'), '2026-03-01');
    await user.type(screen.getByLabelText('To'), '2026-03-31');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Audit log' })).getByText('password.changed')).toBeInTheDocument());
    const last = queries.at(-1)!;
    expect(Object.fromEntries(last)).toEqual({ actor: 'admin@example.com', action: 'password.changed', from: '2026-03-01', to: '2026-03-31' });
  });

  it('is in the admin menu', async () => {
    signIn(admin, { 'GET /admin/audit': () => ({ body: [] }) });
    renderApp('/admin/audit');
    expect(await screen.findByText('Nothing recorded yet', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Audit log' }).length).toBeGreaterThan(0);
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AdminUserDetail } from '@terrafund/contracts';
import { callsTo, expectToast, queriesTo, renderApp, signIn } from '@/testing/test-utils';
import { admin, buildAuditEntry, buildKyc, buildUserWithKyc } from '@/testing/builders';

const pending = buildUserWithKyc({ kycStatus: 'pending', kyc: buildKyc() });
const detailPath = `/admin/users/${pending._id}`;
const detail = (overrides: Partial<AdminUserDetail> = {}): AdminUserDetail => ({ user: pending, transactions: [], auditLog: [], ...overrides });

const link = (contentType: string, documentType: 'idFront' | 'idBack' | 'proofOfAddress' = 'idFront') => ({
  body: {
    url: `/api/kyc/files/abc?expires=1&disposition=inline&sig=s`,
    expiresAt: '2026-02-02T12:05:00.000Z',
    contentType,
    documentType,
  },
});

/** The first visit loads the route module: give it time, so a busy machine does not fail the test. */
async function visit(path: string) {
  const view = renderApp(path);
  // The screen's heading, or its failure message (a failing load is retried first, hence the long wait).
  await waitFor(() => expect(screen.queryByRole('heading', { level: 1 }) ?? screen.queryByRole('alert')).not.toBeNull(), { timeout: 8000 });
  return view;
}

describe('admin user detail', { timeout: 20_000 }, () => {
  it('shows the profile, every KYC field and the three documents, missing ones as "Not uploaded"', async () => {
    signIn(admin, { [`GET ${detailPath}`]: () => ({ body: detail() }) });
    await visit(`/admin/users/${pending._id}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeInTheDocument();
    const profile = screen.getByRole('region', { name: 'Profile' });
    expect(within(profile).getByText('Member since').nextSibling).toHaveTextContent('Jan 05, 2026');
    expect(within(profile).getByText('Last login').nextSibling).toHaveTextContent('Never');
    expect(within(profile).getByText('Membership').nextSibling).toHaveTextContent('No active membership');

    const kyc = screen.getByRole('region', { name: 'KYC information' });
    for (const [label, value] of [
      ['Date of birth', 'Apr 12, 1990'],
      ['Nationality', 'United Kingdom'],
      ['Address', '12 Analytical Row'],
      ['City', 'London'],
      ['Postal code', 'N1 9GU'],
      ['ID type', 'Passport'],
      ['ID number', 'P1234567'],
      ['Submitted at', 'Feb 01, 2026'],
    ]) {
      expect(within(kyc).getByText(label!).nextSibling).toHaveTextContent(value!);
    }
    const documents = within(kyc).getAllByRole('listitem');
    expect(documents.map((item) => item.textContent)).toEqual([
      expect.stringContaining('ID frontUploaded'),
      expect.stringContaining('ID backUploaded'),
      'Proof of addressNot uploaded',
    ]);
    expect(screen.getByText('No transactions found')).toBeInTheDocument();
  });

  it('fetches a fresh signed link on View: an image opens in the page, a PDF in a new tab', async () => {
    const withPdf = buildUserWithKyc({
      ...pending,
      kyc: buildKyc({ documents: ['/api/kyc/documents/idFront/f1', '/api/kyc/documents/proofOfAddress/p1'] }),
    });
    const fetchMock = signIn(admin, {
      [`GET ${detailPath}`]: () => ({ body: detail({ user: withPdf }) }),
      'GET /kyc/documents/idFront/f1/link': () => link('image/png'),
      'GET /kyc/documents/proofOfAddress/p1/link': () => link('application/pdf', 'proofOfAddress'),
    });
    const open = vi.spyOn(window, 'open').mockReturnValue({ opener: {} } as Window);
    const { user } = await visit(detailPath);

    await user.click(await screen.findByRole('button', { name: 'View ID front' }));

    const viewer = await screen.findByRole('dialog', { name: 'ID front' });
    expect(within(viewer).getByRole('img', { name: 'ID front of Ada Lovelace' })).toHaveAttribute(
      'src',
      '/api/kyc/files/abc?expires=1&disposition=inline&sig=s',
    );
    expect(queriesTo(fetchMock, '/kyc/documents/idFront/f1/link')).toEqual([{ disposition: 'inline' }]);
    await user.click(within(viewer).getByRole('button', { name: 'Close' }));

    // Every press asks again: the link is never reused from a cache.
    await user.click(screen.getByRole('button', { name: 'View ID front' }));
    await screen.findByRole('dialog', { name: 'ID front' });
    expect(queriesTo(fetchMock, '/kyc/documents/idFront/f1/link')).toHaveLength(2);
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'View Proof of address' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('/api/kyc/files/abc?expires=1&disposition=inline&sig=s', '_blank'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('downloads a document through a signed attachment link', async () => {
    const fetchMock = signIn(admin, {
      [`GET ${detailPath}`]: () => ({ body: detail() }),
      'GET /kyc/documents/idBack/22222222-2222-4222-8222-222222222222/link': () => link('image/jpeg', 'idBack'),
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {});
    const { user } = await visit(detailPath);

    await user.click(await screen.findByRole('button', { name: 'Download ID back' }));

    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const anchor = click.mock.contexts[0] as HTMLAnchorElement;
    expect(anchor.getAttribute('href')).toBe('/api/kyc/files/abc?expires=1&disposition=inline&sig=s');
    expect(anchor.download).toBe('Ada Lovelace - ID back.jpg');
    expect(queriesTo(fetchMock, '/kyc/documents/idBack/22222222-2222-4222-8222-222222222222/link')).toEqual([{ disposition: 'attachment' }]);
  });

  it('approves a pending KYC with verified: true, toasts it and shows the fresh state', async () => {
    let current = pending;
    const fetchMock = signIn(admin, {
      [`GET ${detailPath}`]: () => ({ body: detail({ user: current }) }),
      [`POST /admin/verify/${pending._id}`]: () => {
        current = { ...pending, kycStatus: 'approved', kycVerified: true };
        return { body: current };
      },
    });
    const { user } = await visit(detailPath);

    await user.click(await screen.findByRole('button', { name: 'Approve' }));

    await expectToast('KYC verified successfully.');
    expect(callsTo(fetchMock, 'POST', `/admin/verify/${pending._id}`)).toEqual([{ verified: true }]);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument());
    expect(within(screen.getByRole('region', { name: 'KYC information' })).getByText('Approved')).toBeInTheDocument();
    expect(queriesTo(fetchMock, detailPath)).toHaveLength(2);
  });

  it('rejects only with a reason: the confirm button stays disabled until one is typed, then sends it', async () => {
    const fetchMock = signIn(admin, {
      [`GET ${detailPath}`]: () => ({ body: detail() }),
      [`POST /admin/verify/${pending._id}`]: () => ({ body: { ...pending, kycStatus: 'rejected' } }),
    });
    const { user } = await visit(detailPath);

    await user.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject KYC' });
    const confirm = within(dialog).getByRole('button', { name: 'Reject KYC' });
    expect(confirm).toBeDisabled();

    const reason = within(dialog).getByLabelText('Rejection reason');
    await user.type(reason, '   ');
    expect(confirm).toBeDisabled();

    await user.clear(reason);
    await user.type(reason, ' The ID photo is blurred. ');
    expect(confirm).toBeEnabled();
    await user.click(confirm);

    await expectToast('KYC rejected.');
    expect(callsTo(fetchMock, 'POST', `/admin/verify/${pending._id}`)).toEqual([
      { verified: false, rejectionReason: 'The ID photo is blurred.' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("toasts the server's message when the decision fails, or \"Failed to update KYC status.\"", async () => {
    let answer = { status: 409, body: { message: 'Only a pending KYC can be approved or rejected', code: 'CONFLICT' } as unknown };
    signIn(admin, {
      [`GET ${detailPath}`]: () => ({ body: detail() }),
      [`POST /admin/verify/${pending._id}`]: () => answer,
    });
    const { user } = await visit(detailPath);

    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    await expectToast('Only a pending KYC can be approved or rejected');

    answer = { status: 502, body: undefined };
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    await expectToast('Failed to update KYC status.');
  });

  it.each(['not_started', 'approved', 'rejected'] as const)('offers no approve or reject when the KYC is %s', async (kycStatus) => {
    const user = buildUserWithKyc({
      kycStatus,
      kyc: kycStatus === 'not_started' ? null : buildKyc({ kycRejectionReason: kycStatus === 'rejected' ? 'Expired passport' : null }),
    });
    signIn(admin, { [`GET ${detailPath}`]: () => ({ body: detail({ user }) }) });
    await visit(detailPath);

    await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' });
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reject' })).not.toBeInTheDocument();
    if (kycStatus === 'rejected') expect(screen.getByText('Expired passport')).toBeInTheDocument();
  });

  it('says "User not found" for a 404, with a way back to the users', async () => {
    signIn(admin, {
      'GET /admin/users/missing': () => ({ status: 404, body: { message: 'User not found', code: 'NOT_FOUND' } }),
      'GET /admin/users': () => ({ body: [], headers: { 'X-Total-Count': '0' } }),
    });
    const { user, router } = await visit('/admin/users/missing');

    expect(screen.getByRole('alert')).toHaveTextContent('User not found');
    await user.click(screen.getByRole('link', { name: 'Back to Users' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/users'));
  });

  it('says "Failed to load user data. Please try again." for another failure, and tries again on request', async () => {
    let fail = true;
    signIn(admin, {
      [`GET ${detailPath}`]: () => (fail ? { status: 500, body: { message: 'An error occurred. Please try again.', code: 'INTERNAL_ERROR' } } : { body: detail() }),
    });
    const { user } = await visit(detailPath);

    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load user data. Please try again.');
    expect(screen.getByRole('link', { name: 'Back to Users' })).toHaveAttribute('href', '/admin/users');

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeInTheDocument();
  });

  it('lists the audit log: when, who, what, and the status before and after', async () => {
    const rejected = buildAuditEntry({
      _id: 'audit-2',
      action: 'kyc.rejected',
      before: { kycStatus: 'pending', kycVerified: false },
      after: { kycStatus: 'rejected', kycVerified: false, rejectionReason: 'Blurred photo' },
      createdAt: '2026-02-01T10:00:00.000Z',
    });
    signIn(admin, { [`GET ${detailPath}`]: () => ({ body: detail({ auditLog: [buildAuditEntry(), rejected] }) }) });
    await visit(detailPath);

    const log = await screen.findByRole('region', { name: 'Audit log' });
    const [approval, rejection] = within(log).getAllByRole('listitem');
    expect(approval).toHaveTextContent('KYC approved');
    expect(approval).toHaveTextContent('by Grace Hopper (grace@example.com)');
    expect(approval).toHaveTextContent('KYC status:Pending → changed to Approved');
    expect(approval).toHaveTextContent('Verified:No → changed to Yes');
    expect(within(approval!).getByText(/Feb 02, 2026/)).toHaveAttribute('datetime', '2026-02-02T11:15:00.000Z');
    expect(rejection).toHaveTextContent('KYC rejected');
    expect(rejection).toHaveTextContent('Rejection reason:— → changed to Blurred photo');
  });

  it('shows a closed account as Closed, with its tombstone and kept records, and no decision that would change it', async () => {
    const closed = buildUserWithKyc({
      ...pending,
      firstName: 'Closed',
      lastName: 'account',
      email: `closed-${pending._id}@invalid`,
      closedAt: '2026-03-01T09:00:00.000Z',
    });
    signIn(admin, { [`GET ${detailPath}`]: () => ({ body: detail({ user: closed, auditLog: [buildAuditEntry()] }) }) });
    await visit(detailPath);

    expect(await screen.findByRole('heading', { level: 1, name: 'Closed account' })).toBeInTheDocument();
    const profile = screen.getByRole('region', { name: 'Profile' });
    expect(within(profile).getByText('Closed')).toBeInTheDocument();
    expect(within(profile).getByText('Closed on').nextSibling).toHaveTextContent('Mar 01, 2026');
    expect(within(profile).queryByRole('link', { name: closed.email })).not.toBeInTheDocument();
    expect(screen.getByText(/cannot sign in or be reopened/)).toBeInTheDocument();
    expect(screen.getByText(/the KYC record and documents \(with the\s+address and date of birth\) are kept/)).toBeInTheDocument();
    // The KYC record is kept and shown, but a pending one is not decided any more.
    expect(screen.getByRole('region', { name: 'KYC information' })).toHaveTextContent('P1234567');
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reject' })).not.toBeInTheDocument();
  });
});

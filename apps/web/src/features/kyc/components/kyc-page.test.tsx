import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { KycInfo, UserWithKyc } from '@terrafund/contracts';
import { buildKyc, buildUser } from '@/testing/builders';
import { pendingPages, renderApp, signIn } from '@/testing/test-utils';

const ID_FRONT = '/api/kyc/documents/idFront/8d2a6a8e-3c1b-4e0f-9a51-2b7c9d0e1f20';

/** This file's submission: a driving licence sent on 2 March 2026, with the front of the ID only. */
const submission = (overrides: Partial<KycInfo> = {}) =>
  buildKyc({ idType: 'driver_license', idNumber: 'DL-998877', kycSubmittedAt: '2026-03-02T09:00:00.000Z', documents: [ID_FRONT], ...overrides });

async function openKycAs(member: UserWithKyc) {
  signIn(member, {
    ...pendingPages.wallet,
    'GET /config': () => ({ body: { contactEmail: 'support@terrafund.test', contactPhone: '+1 555 0100' } }),
    'GET /kyc/documents/idFront/8d2a6a8e-3c1b-4e0f-9a51-2b7c9d0e1f20/link': () => ({
      body: { url: '/api/signed/id-front', expiresAt: new Date(Date.now() + 300_000).toISOString(), contentType: 'image/jpeg', documentType: 'idFront' },
    }),
  });
  const app = renderApp('/kyc');
  await screen.findByRole('heading', { name: 'KYC Verification', level: 1 }, { timeout: 5000 });
  return app;
}

describe('KYC status screens', { timeout: 20_000 }, () => {
  it('pending: "Verification in Progress", 1-2 business days, browsing but no investing, and no form', async () => {
    await openKycAs({ ...buildUser({ kycStatus: 'pending' }), kyc: submission() });

    expect(screen.getByRole('heading', { name: 'Verification in Progress' })).toBeInTheDocument();
    expect(screen.getByText(/usually takes 1-2 business days/)).toBeInTheDocument();
    expect(screen.getByText(/browse projects and plans, but investing and withdrawals open once you are verified/)).toBeInTheDocument();
    expect(screen.getByText('Submitted on Mar 02, 2026')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Verification steps' })).not.toBeInTheDocument();
  });

  it('approved: "Verification Approved" with a way to the wallet', async () => {
    const { user, router } = await openKycAs({ ...buildUser({ kycStatus: 'approved', kycVerified: true }), kyc: submission() });

    expect(screen.getByRole('heading', { name: 'Verification Approved' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Verification steps' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Go to Wallet' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet'));
  });

  it("rejected: the admin's reason, how to reach support, and the form filled with the last submission", async () => {
    const { user } = await openKycAs({
      ...buildUser({ kycStatus: 'rejected' }),
      kyc: submission({ kycRejectionReason: 'The ID photo is blurred.' }),
    });

    expect(screen.getByText('Verification Rejected')).toBeInTheDocument();
    expect(screen.getByText('The ID photo is blurred.')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'support@terrafund.test' })).toHaveAttribute('href', 'mailto:support@terrafund.test');

    expect(screen.getByRole('navigation', { name: 'Verification steps' })).toBeInTheDocument();
    expect(screen.getByLabelText('Date of birth')).toHaveValue('1990-04-12');
    expect(screen.getByLabelText('Nationality')).toHaveValue('UK');

    const steps = screen.getByRole('navigation', { name: 'Verification steps' });
    await user.click(within(steps).getByRole('button', { name: /Identity Verification/ }));
    expect(screen.getByLabelText('ID type')).toHaveValue('driver_license');
    expect(screen.getByLabelText('ID number')).toHaveValue('DL-998877');

    await user.click(within(steps).getByRole('button', { name: /Additional Documents/ }));
    expect(await screen.findByRole('img', { name: 'ID front preview' })).toHaveAttribute('src', '/api/signed/id-front');
    // The confirmation is asked again for every submission.
    expect(screen.getByRole('checkbox')).not.toBeChecked();
  });

  it('not started: the form, with no status message', async () => {
    await openKycAs({ ...buildUser(), kyc: null });

    expect(await screen.findByRole('heading', { name: 'Personal Information', level: 2 })).toBeInTheDocument();
    expect(screen.queryByText('Verification Rejected')).not.toBeInTheDocument();
    expect(screen.queryByText('Verification in Progress')).not.toBeInTheDocument();
  });
});

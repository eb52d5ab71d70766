import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { User } from '@terrafund/contracts';
import { KycNotice } from './kyc-notice';

function renderNotice(user: Pick<User, 'kycVerified' | 'kycStatus'>) {
  const router = createMemoryRouter([{ path: '/', element: <KycNotice user={user} /> }]);
  render(<RouterProvider router={router} />);
}

describe('dashboard KYC notice', () => {
  it('says a verified account is verified', () => {
    renderNotice({ kycVerified: true, kycStatus: 'approved' });
    expect(screen.getByText('Your account is verified')).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('asks an unverified member to complete KYC, linking to /kyc', () => {
    renderNotice({ kycVerified: false, kycStatus: 'not_started' });
    expect(screen.getByText('Please complete your KYC verification')).toBeInTheDocument();
    expect(screen.getByText(/unlocks all platform features/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Complete KYC now' })).toHaveAttribute('href', '/kyc');
  });

  it('tells a member with a pending review that it is in progress', () => {
    renderNotice({ kycVerified: false, kycStatus: 'pending' });
    expect(screen.getByText('Your KYC verification is in progress')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View KYC status' })).toHaveAttribute('href', '/kyc');
  });
});

import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { User } from '@terrafund/contracts';
import { KycNotice } from './kyc-notice';

function renderNotice(user: Pick<User, 'kycVerified' | 'kycStatus'>) {
  const router = createMemoryRouter([{ path: '/', element: <KycNotice user={user} /> }]);
  return render(<RouterProvider router={router} />);
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

  it('asks every member who is not verified (pending, rejected) to complete KYC, saying where it stands', () => {
    for (const kycStatus of ['pending', 'rejected'] as const) {
      const { unmount } = renderNotice({ kycVerified: false, kycStatus });
      expect(screen.getByText('Please complete your KYC verification')).toBeInTheDocument();
      expect(screen.getByText(/Completing KYC verification unlocks all platform features\.$/)).toBeInTheDocument();
      expect(screen.getByText(kycStatus === 'pending' ? /being reviewed/ : /not approved/)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Complete KYC now' })).toHaveAttribute('href', '/kyc');
      expect(screen.queryByText('Your account is verified')).not.toBeInTheDocument();
      unmount();
    }
  });
});

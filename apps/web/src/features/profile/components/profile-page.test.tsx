import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { passwordStrengthProblem, personalInputs } from '@terrafund/contracts/password-strength';
import type { User } from '@terrafund/contracts';
import { buildUser } from '@/testing/builders';
import { callsTo, expectToast, pendingPages, renderApp, signIn } from '@/testing/test-utils';

async function openProfile(member: User = buildUser(), handlers: Parameters<typeof signIn>[1] = {}) {
  const fetchMock = signIn(member, { ...pendingPages.profile, ...handlers });
  const app = renderApp('/profile');
  await screen.findByRole('heading', { name: 'Profile', level: 1 }, { timeout: 8000 });
  return { ...app, fetchMock };
}

const personalInfo = () => screen.getByRole('heading', { name: 'Personal information' }).closest('div.rounded-2xl') as HTMLElement;

describe('profile', { timeout: 20_000 }, () => {
  it('shows the details read-only until Edit, and Cancel puts back what was there', async () => {
    const { user, fetchMock } = await openProfile();

    expect(within(personalInfo()).getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.queryByLabelText('First name')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Your e-mail address cannot be changed.');

    await user.clear(screen.getByLabelText('First name'));
    await user.type(screen.getByLabelText('First name'), 'Augusta');
    await user.click(within(personalInfo()).getByRole('button', { name: 'Cancel' }));

    expect(screen.queryByLabelText('First name')).not.toBeInTheDocument();
    expect(within(personalInfo()).getByText('Ada')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(screen.getByLabelText('First name')).toHaveValue('Ada');
    expect(callsTo(fetchMock, 'PATCH', '/users/profile')).toHaveLength(0);
  });

  it('checks the names before saving', async () => {
    const { user, fetchMock } = await openProfile();
    await user.click(screen.getByRole('button', { name: 'Edit' }));

    await user.clear(screen.getByLabelText('First name'));
    await user.clear(screen.getByLabelText('Last name'));
    await user.type(screen.getByLabelText('Last name'), 'L');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByLabelText('First name')).toHaveAccessibleDescription('Name is required');
    expect(screen.getByLabelText('Last name')).toHaveAccessibleDescription('Name must be at least 2 characters');
    expect(callsTo(fetchMock, 'PATCH', '/users/profile')).toHaveLength(0);
  });

  it('saves with the unchanged e-mail, toasts, leaves edit mode and fetches the user again', async () => {
    let current = buildUser();
    const { user, fetchMock } = await openProfile(current, {
      'GET /users/profile': () => ({ body: current }),
      'PATCH /users/profile': (body) => {
        current = { ...current, ...(body as Partial<User>) };
        return { body: current };
      },
    });
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.clear(screen.getByLabelText('First name'));
    await user.type(screen.getByLabelText('First name'), 'Augusta');
    await user.clear(screen.getByLabelText('Phone'));
    await user.type(screen.getByLabelText('Phone'), '+44 20 7946 0000');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await expectToast('Profile updated successfully');
    expect(callsTo(fetchMock, 'PATCH', '/users/profile')).toEqual([
      { firstName: 'Augusta', lastName: 'Lovelace', phone: '+44 20 7946 0000', email: 'ada@example.com' },
    ]);
    expect(screen.queryByLabelText('First name')).not.toBeInTheDocument();
    expect(within(personalInfo()).getByText('Augusta')).toBeInTheDocument();
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/users/profile').length).toBeGreaterThanOrEqual(2));
  });

  it('toasts the server message, or "Failed to update profile", and stays in edit mode', async () => {
    let reply: { status: number; body?: unknown } = { status: 400, body: { message: 'Please enter a valid phone number', code: 'VALIDATION_ERROR', fields: { phone: 'Please enter a valid phone number' } } };
    const { user } = await openProfile(buildUser(), { 'PATCH /users/profile': () => reply });
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await expectToast('Please enter a valid phone number');
    expect(screen.getByLabelText('Phone')).toHaveAccessibleDescription('Please enter a valid phone number');

    reply = { status: 500 };
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await expectToast('Failed to update profile');
    expect(screen.getByLabelText('First name')).toBeInTheDocument();
  });

  it('checks the new password and its confirmation before changing it', async () => {
    const { user, fetchMock } = await openProfile();

    await user.click(screen.getByRole('button', { name: 'Update password' }));
    expect(await screen.findByLabelText('Current password')).toHaveAccessibleDescription('Current password is required');
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription('Password is required');

    await user.type(screen.getByLabelText('Current password'), 'old-secret-1');
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.type(screen.getByLabelText('Confirm new password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveAccessibleDescription('Password must be at least 8 characters'));

    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'new-secret-22');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    await waitFor(() => expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleDescription('New passwords do not match'));
    expect(callsTo(fetchMock, 'POST', '/users/change-password')).toHaveLength(0);
  });

  it('changes the password, toasts and clears the form; a refusal toasts the server message or the fallback', async () => {
    let reply: { status: number; body?: unknown } = { status: 400, body: { message: 'Current password is incorrect', code: 'VALIDATION_ERROR' } };
    const { user, fetchMock } = await openProfile(buildUser(), { 'POST /users/change-password': () => reply });
    const fillIn = async () => {
      await user.type(screen.getByLabelText('Current password'), 'old-secret-1');
      await user.type(screen.getByLabelText('New password'), 'new-secret-22');
      await user.type(screen.getByLabelText('Confirm new password'), 'new-secret-22');
      await user.click(screen.getByRole('button', { name: 'Update password' }));
    };

    await fillIn();
    await expectToast('Current password is incorrect');
    expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription('Current password is incorrect');

    reply = { status: 502 };
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    await expectToast('Failed to change password');

    reply = { status: 200, body: { message: 'Password changed successfully' } };
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    await expectToast('Password changed successfully');
    expect(screen.getByLabelText('Current password')).toHaveValue('');
    expect(screen.getByLabelText('New password')).toHaveValue('');
    expect(screen.getByLabelText('Confirm new password')).toHaveValue('');
    expect(callsTo(fetchMock, 'POST', '/users/change-password').at(-1)).toEqual({ currentPassword: 'old-secret-1', newPassword: 'new-secret-22' });
  });

  it.each(['Password123!', 'Passw0rd!', 'Qwerty123456!', 'Iloveyou1!'])('refuses a new password "%s" without sending it, with the reason under that field', async (password) => {
    const { user, fetchMock } = await openProfile(buildUser());
    await user.type(screen.getByLabelText('Current password'), 'old-secret-1');
    await user.type(screen.getByLabelText('New password'), password);
    await user.type(screen.getByLabelText('Confirm new password'), password);
    await user.click(screen.getByRole('button', { name: 'Update password' }));

    const member = buildUser();
    const reason = passwordStrengthProblem(password, personalInputs(member));
    expect(reason).toEqual(expect.any(String));
    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(reason!));
    expect(callsTo(fetchMock, 'POST', '/users/change-password')).toHaveLength(0);
  });

  it('refuses a new password that is only the member\'s own name', async () => {
    const member = buildUser({ firstName: 'Bartholomew', lastName: 'Quist' });
    const { user, fetchMock } = await openProfile(member);
    await user.type(screen.getByLabelText('Current password'), 'old-secret-1');
    await user.type(screen.getByLabelText('New password'), 'BartholomewQuist');
    await user.type(screen.getByLabelText('Confirm new password'), 'BartholomewQuist');
    await user.click(screen.getByRole('button', { name: 'Update password' }));

    // Strong for anyone else; refused for Bartholomew Quist.
    expect(passwordStrengthProblem('BartholomewQuist')).toBeUndefined();
    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(passwordStrengthProblem('BartholomewQuist', personalInputs(member))!));
    expect(callsTo(fetchMock, 'POST', '/users/change-password')).toHaveLength(0);
  });

  it('shows the server\'s refusal of a new password under that field', async () => {
    const refusal = 'This is a commonly used password. Add more words that are less common.';
    const { user } = await openProfile(buildUser(), {
      'POST /users/change-password': () => ({ status: 400, body: { message: refusal, code: 'VALIDATION_ERROR', fields: { newPassword: refusal } } }),
    });
    await user.type(screen.getByLabelText('Current password'), 'old-secret-1');
    await user.type(screen.getByLabelText('New password'), 'new-secret-22');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-secret-22');
    await user.click(screen.getByRole('button', { name: 'Update password' }));

    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(refusal));
    await expectToast(refusal);
  });

  it('shows and hides each password', async () => {
    const { user } = await openProfile();
    const field = screen.getByLabelText('New password');
    expect(field).toHaveAttribute('type', 'password');
    await user.click(within(field.parentElement as HTMLElement).getByRole('button', { name: 'Show password' }));
    expect(field).toHaveAttribute('type', 'text');
  });

  it('account status: no membership, the KYC status and a link to /kyc until approved', async () => {
    await openProfile(buildUser({ kycStatus: 'rejected' }));
    const status = screen.getByRole('heading', { name: 'Account status' }).closest('div.rounded-2xl') as HTMLElement;

    expect(within(status).getByText('No active membership')).toBeInTheDocument();
    expect(within(status).getByText('Rejected')).toBeInTheDocument();
    expect(within(status).getByRole('link', { name: 'Review and resubmit' })).toHaveAttribute('href', '/kyc');
  });

  it('account status: the membership and an approved KYC need no link', async () => {
    await openProfile(buildUser({ kycStatus: 'approved', kycVerified: true, membershipLevel: 'gold', membershipEndDate: '2029-01-05T00:00:00.000Z' }));
    const status = screen.getByRole('heading', { name: 'Account status' }).closest('div.rounded-2xl') as HTMLElement;

    expect(within(status).getByText('Gold')).toBeInTheDocument();
    expect(within(status).getByText('Until Jan 05, 2029')).toBeInTheDocument();
    expect(within(status).getByText('Approved')).toBeInTheDocument();
    expect(within(status).queryByRole('link')).not.toBeInTheDocument();
  });

  it('Security: "Change Password" takes the member to the password form; 2FA is offered (security-section.test.tsx)', async () => {
    const { user } = await openProfile();

    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(screen.getByLabelText('Current password')).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Enable 2FA' })).toBeInTheDocument();
  });
});

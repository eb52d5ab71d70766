import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { expectConsoleError, queriesTo, renderApp, signIn } from '@/testing/test-utils';
import { buildProject, buildUser } from '@/testing/builders';

const member = buildUser({ kycStatus: 'approved', kycVerified: true });
const projects = ['North Quay Lofts', 'Old Mill Offices', 'River Meadow Land', 'Fourth Project'].map((title) => buildProject({ title }));

function openDashboard(projectsReply: () => { status?: number; body?: unknown }) {
  const fetchMock = signIn(member, {
    'GET /users/dashboard': () => ({ body: { totalAssets: 0, walletBalance: 0, membership: null, nextPayout: null } }),
    'GET /users/investment-performance': () => ({ body: [] }),
    'GET /projects': projectsReply,
  });
  return { ...renderApp('/dashboard'), fetchMock };
}

describe('dashboard projects', { timeout: 20_000 }, () => {
  it('shows the first 3 projects of the catalogue as cards, and a link to all of them', async () => {
    const { fetchMock } = openDashboard(() => ({ body: projects }));

    const section = await screen.findByRole('region', { name: 'Investment projects' }, { timeout: 5000 });
    await within(section).findByRole('article', { name: 'North Quay Lofts' });
    expect(within(section).getAllByRole('article').map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'North Quay Lofts',
      'Old Mill Offices',
      'River Meadow Land',
    ]);
    expect(within(section).getByRole('link', { name: 'Old Mill Offices' })).toHaveAttribute('href', `/projects/${projects[1]!._id}`);
    expect(within(section).getByRole('link', { name: 'View all projects' })).toHaveAttribute('href', '/projects');
    // The unfiltered catalogue, asked once.
    expect(queriesTo(fetchMock, '/projects')).toEqual([{}]);
  });

  it('logs a failed load and leaves the section out, without a message', async () => {
    expectConsoleError('Failed to load projects');
    const logged = vi.spyOn(console, 'error');
    openDashboard(() => ({ status: 400, body: { message: 'Invalid input', code: 'VALIDATION_ERROR' } }));

    await waitFor(() => expect(logged).toHaveBeenCalledWith('Failed to load projects', expect.anything()), { timeout: 5000 });
    expect(screen.queryByRole('region', { name: 'Investment projects' })).not.toBeInTheDocument();
    expect(screen.queryByText('Invalid input')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Welcome back, Ada Lovelace' })).toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, expectToast, queriesTo, renderApp, signIn } from '@/testing/test-utils';
import { admin, buildProject } from '@/testing/builders';

const harbour = buildProject();
const meadow = buildProject({ title: 'Meadow Farmland', type: 'land', status: 'reserved', location: 'Ghent, Belgium', images: [], funded: 0, target: 250_000 });

async function visit(path: string) {
  const view = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'Manage Projects' }, { timeout: 5000 });
  return view;
}

const row = (title: string) => screen.getByText(title, { selector: 'p' }).closest('tr')!;

describe('admin projects list', { timeout: 20_000 }, () => {
  it('lists every project with its cover, type, status, funding and actions, and offers Add Project', async () => {
    signIn(admin, { 'GET /projects': () => ({ body: [harbour, meadow] }) });
    await visit('/admin/projects');

    await screen.findByRole('table', { name: 'Projects' });
    expect(screen.getByRole('link', { name: 'Add Project' })).toHaveAttribute('href', '/admin/projects/add');

    const first = within(row('Harbour View Residences'));
    expect(first.getByText('Lisbon, Portugal')).toBeInTheDocument();
    expect(first.getByText('Residential')).toBeInTheDocument();
    expect(first.getByText('Available')).toBeInTheDocument();
    expect(first.getByText('$400,000 / $1,000,000')).toBeInTheDocument();
    expect(row('Harbour View Residences').querySelector('img')).toHaveAttribute('src', `${harbour.images[0]}/thumb`);
    expect(first.getByRole('link', { name: 'Edit Harbour View Residences' })).toHaveAttribute('href', `/admin/projects/edit?id=${harbour._id}`);
    expect(first.getByRole('button', { name: 'Delete Harbour View Residences' })).toBeInTheDocument();

    const second = within(row('Meadow Farmland'));
    expect(second.getByText('Land')).toBeInTheDocument();
    expect(second.getByText('Reserved')).toBeInTheDocument();
    expect(second.getByText('$0 / $250,000')).toBeInTheDocument();
    expect(row('Meadow Farmland').querySelector('img')).toBeNull();
  });

  it('keeps the search and the status filter in the URL and sends them', async () => {
    const fetchMock = signIn(admin, {
      'GET /projects': (_body, { url }) => ({ body: new URL(url).searchParams.get('status') === 'reserved' ? [meadow] : [harbour, meadow] }),
    });
    const { user, router } = await visit('/admin/projects');
    await screen.findByRole('table', { name: 'Projects' });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by status' }), 'reserved');
    await waitFor(() => expect(screen.queryByText('Harbour View Residences')).not.toBeInTheDocument());
    expect(router.state.location.search).toBe('?status=reserved');

    await user.type(screen.getByRole('searchbox', { name: 'Search projects' }), 'meadow');
    await waitFor(() => expect(router.state.location.search).toBe('?status=reserved&search=meadow'));
    await waitFor(() => expect(queriesTo(fetchMock, '/projects').at(-1)).toEqual({ search: 'meadow', status: 'reserved' }));
    expect(queriesTo(fetchMock, '/projects')).toHaveLength(3);
  });

  it('offers Clear filters when nothing matches', async () => {
    signIn(admin, { 'GET /projects': (_body, { url }) => ({ body: new URL(url).search ? [] : [harbour] }) });
    const { user, router } = await visit('/admin/projects?search=nothing');

    expect(await screen.findByText('No projects found')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search projects' })).toHaveValue('nothing');
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));

    expect(await screen.findByText('Harbour View Residences')).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('deletes a project only after confirmation, then says so and drops it from the list', async () => {
    let deleted = false;
    const fetchMock = signIn(admin, {
      'GET /projects': () => ({ body: deleted ? [meadow] : [harbour, meadow] }),
      [`DELETE /projects/${harbour._id}`]: () => {
        deleted = true;
        return { status: 204 };
      },
    });
    const { user } = await visit('/admin/projects');
    await screen.findByRole('table', { name: 'Projects' });

    await user.click(screen.getByRole('button', { name: 'Delete Harbour View Residences' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete project' });
    expect(dialog).toHaveAccessibleDescription('“Harbour View Residences” will be removed for good. This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'DELETE', `/projects/${harbour._id}`)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Harbour View Residences' }));
    dialog = screen.getByRole('dialog', { name: 'Delete project' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await expectToast('Project deleted successfully');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Harbour View Residences')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'DELETE', `/projects/${harbour._id}`)).toHaveLength(1);
  });

  it('shows why a project with investments cannot be deleted, in the dialog and only there', async () => {
    const reason = 'A project with investments cannot be deleted. Set it to sold or reserved instead.';
    signIn(admin, {
      'GET /projects': () => ({ body: [harbour] }),
      [`DELETE /projects/${harbour._id}`]: () => ({ status: 409, body: { message: reason, code: 'CONFLICT' } }),
    });
    const { user } = await visit('/admin/projects');
    await screen.findByRole('table', { name: 'Projects' });

    await user.click(screen.getByRole('button', { name: 'Delete Harbour View Residences' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete project' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(reason);
    expect(screen.getAllByText(reason)).toHaveLength(1);
    expect(screen.getByText('Harbour View Residences', { selector: 'p' })).toBeInTheDocument();

    // Closing forgets the refusal: the next attempt starts clean.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Delete Harbour View Residences' }));
    expect(within(screen.getByRole('dialog', { name: 'Delete project' })).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('is reached from the admin menu', async () => {
    signIn(admin, { 'GET /projects': () => ({ body: [] }), 'GET /admin/users': () => ({ body: [] }) });
    const { user, router } = renderApp('/admin/users');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await user.click(within(nav).getByRole('link', { name: 'Projects' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/projects'));
    await waitFor(() => expect(within(nav).getByRole('link', { name: 'Projects' })).toHaveAttribute('aria-current', 'page'));
  });
});

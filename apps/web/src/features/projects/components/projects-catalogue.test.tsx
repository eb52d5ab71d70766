import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { expectConsoleError, queriesTo, renderApp, signIn } from '@/testing/test-utils';
import { buildProject, buildUser } from '@/testing/builders';

const member = buildUser();
const harbour = buildProject();
const meadow = buildProject({
  title: 'Meadow Farmland',
  type: 'land',
  status: 'reserved',
  location: 'Ghent, Belgium',
  images: [],
  target: 250_000,
  funded: 249_999,
  roi: 6.8,
});

/** The first visit loads the route module: give it time, so a busy machine does not fail the test. */
async function visit(path: string) {
  const view = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'Projects' }, { timeout: 5000 });
  return view;
}

const card = (title: string) => screen.getByRole('article', { name: title });

describe('projects catalogue', { timeout: 20_000 }, () => {
  it('shows each project as a card linking to its page, with its figures in whole dollars', async () => {
    signIn(member, { 'GET /projects': () => ({ body: [harbour, meadow] }) });
    await visit('/projects');

    await screen.findByRole('article', { name: 'Harbour View Residences' });
    const first = within(card('Harbour View Residences'));
    expect(first.getByRole('link', { name: 'Harbour View Residences' })).toHaveAttribute('href', `/projects/${harbour._id}`);
    expect(first.getByText('Residential')).toBeInTheDocument();
    expect(first.getByText('Lisbon, Portugal')).toBeInTheDocument();
    expect(first.getByText('Target').nextElementSibling).toHaveTextContent('$1,000,000');
    expect(first.getByText('ROI').nextElementSibling).toHaveTextContent('8.5%');
    expect(first.getByText('40% funded')).toBeInTheDocument();
    expect(first.getByText('$400,000 / $1,000,000')).toBeInTheDocument();
    expect(first.getByRole('progressbar', { name: 'Funded' })).toHaveAttribute('aria-valuenow', '40');
    // The first picture, at card size, loaded only when scrolled near.
    const cover = first.getByRole('img', { name: 'Harbour View Residences' });
    expect(cover).toHaveAttribute('src', `${harbour.images[0]}/card`);
    expect(cover).toHaveAttribute('loading', 'lazy');

    const second = within(card('Meadow Farmland'));
    expect(second.getByText('Land')).toBeInTheDocument();
    expect(second.getByText('6.8%')).toBeInTheDocument();
    // 99.9996 % is not "100%": only a full project reads as fully funded.
    expect(second.getByText('99% funded')).toBeInTheDocument();
    expect(second.getByText('$249,999 / $250,000')).toBeInTheDocument();
    // No pictures: a neutral stand-in, not a broken image.
    expect(second.queryByRole('img')).not.toBeInTheDocument();
  });

  it('writes the type and status filters to the URL and the request, and Back restores the previous ones', async () => {
    const fetchMock = signIn(member, { 'GET /projects': () => ({ body: [harbour] }) });
    const { user, router } = await visit('/projects');
    await screen.findByRole('article', { name: 'Harbour View Residences' });

    const type = screen.getByRole('combobox', { name: 'Filter by type' });
    const status = screen.getByRole('combobox', { name: 'Filter by status' });
    expect(within(type).getAllByRole('option').map((o) => o.textContent)).toEqual(['All Types', 'Residential', 'Commercial', 'Land']);
    expect(within(status).getAllByRole('option').map((o) => o.textContent)).toEqual(['All Status', 'Available', 'Sold', 'Reserved']);

    await user.selectOptions(type, 'land');
    await waitFor(() => expect(router.state.location.search).toBe('?type=land'));
    await user.selectOptions(status, 'sold');
    await waitFor(() => expect(router.state.location.search).toBe('?type=land&status=sold'));
    await waitFor(() => expect(queriesTo(fetchMock, '/projects').at(-1)).toEqual({ type: 'land', status: 'sold' }));
    // Only non-empty filters are sent (docs/product.md §6.2 Catalogue).
    expect(queriesTo(fetchMock, '/projects')[0]).toEqual({});

    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe('?type=land');
    expect(type).toHaveValue('land');
    expect(status).toHaveValue('');
  });

  it('searches once typing pauses, keeps the search in the URL, and refills the box from it', async () => {
    const fetchMock = signIn(member, {
      'GET /projects': (_body, { url }) => ({ body: new URL(url).searchParams.get('search') === 'meadow' ? [meadow] : [harbour, meadow] }),
    });
    const { user, router } = await visit('/projects?type=land');
    await screen.findByRole('article', { name: 'Harbour View Residences' });

    const search = screen.getByRole('searchbox', { name: 'Search projects' });
    expect(search).toHaveAttribute('placeholder', 'Search projects...');
    await user.type(search, 'meadow');

    await waitFor(() => expect(router.state.location.search).toBe('?type=land&search=meadow'));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Harbour View Residences' })).not.toBeInTheDocument(), { timeout: 3000 });
    // Debounced: one request for the whole word, not one per letter.
    expect(queriesTo(fetchMock, '/projects')).toEqual([{ type: 'land' }, { type: 'land', search: 'meadow' }]);

    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe('?type=land');
    await waitFor(() => expect(search).toHaveValue(''));
  });

  it('opens with the filters of the address it was given (a reload, a shared link)', async () => {
    const fetchMock = signIn(member, { 'GET /projects': () => ({ body: [meadow] }) });
    await visit('/projects?search=farm&type=land&status=reserved');

    await screen.findByRole('article', { name: 'Meadow Farmland' });
    expect(screen.getByRole('searchbox', { name: 'Search projects' })).toHaveValue('farm');
    expect(screen.getByRole('combobox', { name: 'Filter by type' })).toHaveValue('land');
    expect(screen.getByRole('combobox', { name: 'Filter by status' })).toHaveValue('reserved');
    expect(queriesTo(fetchMock, '/projects')).toEqual([{ search: 'farm', type: 'land', status: 'reserved' }]);
  });

  it('ignores filter values it does not know instead of sending them', async () => {
    const fetchMock = signIn(member, { 'GET /projects': () => ({ body: [harbour] }) });
    await visit('/projects?type=castle&status=gone');

    await screen.findByRole('article', { name: 'Harbour View Residences' });
    expect(screen.getByRole('combobox', { name: 'Filter by type' })).toHaveValue('');
    expect(queriesTo(fetchMock, '/projects')).toEqual([{}]);
  });

  it('shows skeletons while loading, then "No projects found" with a way to clear the filters', async () => {
    let answer: (value: { body: unknown }) => void = () => {};
    const fetchMock = signIn(member, {
      'GET /projects': (_body, { url }) =>
        new URL(url).search ? new Promise((resolve) => (answer = resolve)) : { body: [harbour] },
    });
    const { user, router } = await visit('/projects?status=sold');

    expect(await screen.findByRole('status', { name: 'Loading projects' })).toBeInTheDocument();
    answer({ body: [] });

    expect(await screen.findByText('No projects found')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));

    expect(await screen.findByRole('article', { name: 'Harbour View Residences' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    expect(screen.getByRole('combobox', { name: 'Filter by status' })).toHaveValue('');
    expect(queriesTo(fetchMock, '/projects').at(-1)).toEqual({});
  });

  it('logs a failed load without a message to the member', async () => {
    expectConsoleError('Failed to load projects');
    const logged = vi.spyOn(console, 'error');
    signIn(member, { 'GET /projects': () => ({ status: 400, body: { message: 'Search must be at most 100 characters', code: 'VALIDATION_ERROR' } }) });
    await visit('/projects');

    await waitFor(() => expect(logged).toHaveBeenCalledWith('Failed to load projects', expect.anything()));
    expect(screen.queryByText('Search must be at most 100 characters')).not.toBeInTheDocument();
    expect(screen.queryAllByRole('status').filter((el) => el.getAttribute('aria-live') === 'polite')).toHaveLength(0);
  });

  it('shows an error with Try again when the list fails to load, never "No projects found", and loads on Try again', async () => {
    expectConsoleError('Failed to load projects');
    let fail = true;
    const { user } = (signIn(member, {
      'GET /projects': () => (fail ? { status: 500, body: { message: 'Internal error', code: 'INTERNAL' } } : { body: [harbour] }),
    }),
    await visit('/projects'));

    expect(await screen.findByText('Projects are not available right now')).toBeInTheDocument();
    expect(screen.queryByText('No projects found')).not.toBeInTheDocument();

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: harbour.title })).toBeInTheDocument();
    expect(screen.queryByText('Projects are not available right now')).not.toBeInTheDocument();
  });
});

import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, Link, RouterProvider, useSearchParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePageDebounce } from './use-page-debounce';

/** A list page whose search box schedules a search write on each keystroke, and a link to a details page. */
function ListPage() {
  const [, setParams] = useSearchParams();
  const debounce = usePageDebounce(300);
  return (
    <>
      <input aria-label="type" onChange={(event) => debounce.schedule(() => setParams({ search: event.target.value }, { replace: true }))} />
      <Link to="/details">View details</Link>
    </>
  );
}

const type = (value: string) => act(() => fireEvent.change(screen.getByRole('textbox', { name: 'type' }), { target: { value } }));

function setup() {
  let release: () => void = () => {};
  const router = createMemoryRouter(
    [
      { path: '/list', element: <ListPage /> },
      // A details page that takes time to load, as a lazily loaded route does.
      { path: '/details', loader: () => new Promise<null>((resolve) => (release = () => resolve(null))), element: <p>details</p> },
    ],
    { initialEntries: ['/list'] },
  );
  render(<RouterProvider router={router} />);
  return { router, release: () => release() };
}

describe('usePageDebounce', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => vi.useRealTimers());

  it('runs the write once the delay passes, once', async () => {
    const { router } = setup();
    type('ad');
    type('ada');
    expect(router.state.location.search).toBe('');
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(router.state.location.search).toBe('?search=ada');
  });

  it('drops a waiting write when the person leaves for another page, so their click is not undone', async () => {
    const { router, release } = setup();
    type('ada');
    act(() => void router.navigate('/details'));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await act(async () => release());
    expect(await screen.findByText('details')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/details');
  });

  it('sends a waiting write at once when the person clicks, so a link clicked before the delay still leads on', async () => {
    const { router, release } = setup();
    type('ada');
    act(() => screen.getByRole('link', { name: 'View details' }).click());
    expect(router.state.location.search).toBe('?search=ada');
    await act(async () => release());
    expect(await screen.findByText('details')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(router.state.location.pathname).toBe('/details');
  });
});

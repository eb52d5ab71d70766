import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useSearchParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePageDebounce } from './use-page-debounce';

/** A list page whose button schedules a search write, as a search box does on a keystroke. */
function ListPage() {
  const [, setParams] = useSearchParams();
  const debounce = usePageDebounce(300);
  return (
    <button type="button" onClick={() => debounce.schedule(() => setParams({ search: 'ada' }, { replace: true }))}>
      type
    </button>
  );
}

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
    act(() => screen.getByRole('button', { name: 'type' }).click());
    act(() => screen.getByRole('button', { name: 'type' }).click());
    expect(router.state.location.search).toBe('');
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(router.state.location.search).toBe('?search=ada');
  });

  it('drops a waiting write when the person leaves for another page, so their click is not undone', async () => {
    const { router, release } = setup();
    act(() => screen.getByRole('button', { name: 'type' }).click());
    act(() => void router.navigate('/details'));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await act(async () => release());
    expect(await screen.findByText('details')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/details');
  });
});

import { RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { prerender, drawnConfigAttributes } from '@/prerender';
import { createQueryClient } from '@/lib/query-client';
import { callsTo, mockApi } from '@/testing/test-utils';
import { AppFrame } from './app-frame';
import { takeDrawnConfig, watchDrawnPage } from './drawn-page';
import { createAppRouter, whenRouterReady } from './router';

/**
 * The pages drawn at build against the browser's first render, in React's development build, which reports every
 * difference it finds while adopting the markup, attributes included (a console error fails the test): what
 * scripts/prerender.mjs draws, put in the page as it puts it, then adopted as main.tsx adopts it, on another day.
 */
const BUILT = new Date('2026-12-31T23:30:00Z');
const VISITED = new Date('2027-01-02T09:00:00Z');

const originalTimeZone = process.env.TZ;
afterEach(() => {
  cleanup();
  document.head.querySelectorAll('title').forEach((title) => title.remove());
  document.body.innerHTML = '';
  window.__appReady = undefined;
  window.__held = undefined;
  process.env.TZ = originalTimeZone;
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});

/** The page the build makes for `pathname` (its title moved into <head>, the markup into #root), as it was built. */
async function drawAtBuild(pathname: string, change: (markup: string) => string = (markup) => markup) {
  process.env.TZ = 'America/Los_Angeles';
  vi.setSystemTime(BUILT);
  const markup = await prerender(pathname);
  const title = markup.match(/^<title>.*?<\/title>/)?.[0] ?? '';
  document.head.insertAdjacentHTML('beforeend', title);
  const attributes = drawnConfigAttributes.map(([name, value]) => ` ${name}="${value}"`).join('');
  document.body.innerHTML = `<div id="root" data-prerendered${attributes}>${change(markup.slice(title.length))}</div>`;
  window.history.replaceState(null, '', pathname);
  return document.getElementById('root')!;
}

/** What main.tsx does with a drawn page, on the visitor's day and in their time zone. */
async function startTheApp(root: HTMLElement, onRecoverableError = vi.fn()) {
  process.env.TZ = 'Pacific/Kiritimati';
  vi.setSystemTime(VISITED);
  const queryClient = createQueryClient();
  takeDrawnConfig(root, queryClient);
  const drawnPage = watchDrawnPage(root);
  const router = createAppRouter();
  router.initialize();
  await whenRouterReady(router);
  render(
    <AppFrame queryClient={queryClient} drawnPage={drawnPage}>
      <RouterProvider router={router} />
    </AppFrame>,
    { container: root, hydrate: true, onRecoverableError },
  );
  await waitFor(() => expect(window.__appReady).toBe(true));
  return { onRecoverableError };
}

describe('a page drawn at build', () => {
  it.each(['/', '/login', '/404'])('%s is adopted as drawn two days and a year later, in another time zone', { timeout: 20_000 }, async (pathname) => {
    mockApi({});
    const root = await drawAtBuild(pathname);
    const main = root.querySelector('main');
    const { onRecoverableError } = await startTheApp(root);
    expect(onRecoverableError).not.toHaveBeenCalled();
    expect(root.querySelector('main')).toBe(main);
  });

  it("carries no year and shows the visitor's once the app runs", async () => {
    mockApi({});
    const root = await drawAtBuild('/');
    expect(root.textContent).toContain('© Terrafund. All rights reserved.');
    expect(root.textContent).not.toMatch(/20\d\d/);
    await startTheApp(root);
    expect(await screen.findByText('© 2027 Terrafund. All rights reserved.')).toBeInTheDocument();
  });

  it("shows the contact details the server wrote into it, without asking for them", async () => {
    const fetchMock = mockApi({});
    const root = await drawAtBuild('/', (markup) => markup.replaceAll('support@terrafund.example', 'desk@invest.example'));
    root.setAttribute('data-contact-email', 'desk@invest.example');
    const { onRecoverableError } = await startTheApp(root);
    expect(onRecoverableError).not.toHaveBeenCalled();
    expect(screen.getAllByText('desk@invest.example').length).toBeGreaterThan(0);
    expect(callsTo(fetchMock, 'GET', '/config')).toHaveLength(0);
  });

  it('keeps what was typed, ticked and focused, caret included, when React draws it again, and sends it', async () => {
    const fetchMock = mockApi({ 'POST /users/login': () => ({ status: 400, body: { message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' } }) });
    // A drawn page that is not what the app draws: React reports it and draws the screen again.
    const root = await drawAtBuild('/login', (markup) => markup.replace('Sign in to your Terrafund account.', 'Drawn on another day.'));
    const drawnEmail = root.querySelector<HTMLInputElement>('input[name="email"]')!;
    const drawnPassword = root.querySelector<HTMLInputElement>('input[name="password"]')!;
    drawnEmail.value = 'early@example.com';
    root.querySelector<HTMLInputElement>('input[name="rememberMe"]')!.checked = true;
    drawnPassword.focus();
    drawnPassword.value = 'typed-early';
    drawnPassword.setSelectionRange(3, 5);

    const { onRecoverableError } = await startTheApp(root);
    expect(onRecoverableError).toHaveBeenCalled();
    expect(drawnEmail.isConnected).toBe(false);
    const email = screen.getByLabelText<HTMLInputElement>('Email');
    const password = screen.getByLabelText<HTMLInputElement>('Password');
    expect(email).not.toBe(drawnEmail);
    expect(email.value).toBe('early@example.com');
    expect(password.value).toBe('typed-early');
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Remember me' }).checked).toBe(true);
    expect(document.activeElement).toBe(password);
    expect([password.selectionStart, password.selectionEnd]).toEqual([3, 5]);

    // react-hook-form took the fields as they were: the form sends what was typed.
    fireEvent.submit(password.form!);
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/users/login')).toEqual([{ email: 'early@example.com', password: 'typed-early', rememberMe: true }]));
  });

  it('does a Sign in pressed before the app ran on the form drawn again', async () => {
    const fetchMock = mockApi({ 'POST /users/login': () => ({ status: 400, body: { message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' } }) });
    const root = await drawAtBuild('/login', (markup) => markup.replace('Sign in to your Terrafund account.', 'Drawn on another day.'));
    root.querySelector<HTMLInputElement>('input[name="email"]')!.value = 'early@example.com';
    root.querySelector<HTMLInputElement>('input[name="password"]')!.value = 'typed-early';
    const form = root.querySelector('form')!;
    // What index.html holds when the form is sent before the app runs.
    window.__held = [{ form, submitter: form.querySelector('button[type="submit"]') }];
    await startTheApp(root);
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/users/login')).toEqual([{ email: 'early@example.com', password: 'typed-early', rememberMe: false }]));
  });
});

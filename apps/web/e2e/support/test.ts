import { test as base, expect, type BrowserContext, type ConsoleMessage, type Request, type Response } from '@playwright/test';

/**
 * The journeys' `test` (issue 17: no console error or warning, no failed request a test did not cause on purpose).
 *
 * Every browser context a test uses (its own `page`/`context`, and any it opens with `browser.newContext()`)
 * is watched: a console error or warning, an uncaught page error, a response with status ≥ 400 and a request
 * that fails on the network all fail the test when it ends, listed one per line. A test that causes one on
 * purpose declares it first:
 *
 *   problems.allowResponse(/\/api\/users\/login$/, 400);   // the wrong password this test types
 *   problems.allowConsole(/the exact warning text/);
 *
 * Chromium's own "Failed to load resource: … status of 4xx" console line repeats a failed response, so it is
 * judged with that response, not on its own.
 */
export type Problems = {
  /** A response to a URL matching `url` with one of `statuses` (any ≥ 400 when none is given) is expected. */
  allowResponse: (url: RegExp, ...statuses: number[]) => void;
  /** A request to a URL matching `url` that fails on the network (aborted, refused) is expected. */
  allowRequestFailure: (url: RegExp) => void;
  /** A console error or warning whose text matches is expected. */
  allowConsole: (text: RegExp) => void;
};

type Allowed = { responses: { url: RegExp; statuses: number[] }[]; failures: RegExp[]; console: RegExp[] };

/** Chromium's note about a response already judged by its status. */
const RESOURCE_NOTE = /^Failed to load resource: the server responded with a status of \d{3}/;

function watch(context: BrowserContext, allowed: Allowed, found: string[]) {
  const where = (message: ConsoleMessage) => {
    const location = message.location();
    return location.url ? ` (${location.url}:${location.lineNumber})` : '';
  };
  context.on('console', (message) => {
    const type = message.type();
    if (type !== 'error' && type !== 'warning') return;
    const text = message.text();
    if (RESOURCE_NOTE.test(text)) return;
    if (allowed.console.some((pattern) => pattern.test(text))) return;
    found.push(`console ${type}: ${text}${where(message)}`);
  });
  context.on('weberror', (error) => {
    const text = error.error().message;
    if (allowed.console.some((pattern) => pattern.test(text))) return;
    found.push(`uncaught error: ${text}`);
  });
  context.on('response', (response: Response) => {
    const status = response.status();
    if (status < 400) return;
    const url = response.url();
    if (allowed.responses.some((a) => a.url.test(url) && (a.statuses.length === 0 || a.statuses.includes(status)))) return;
    found.push(`HTTP ${status}: ${response.request().method()} ${url}`);
  });
  context.on('requestfailed', (request: Request) => {
    const url = request.url();
    const failure = request.failure()?.errorText ?? 'failed';
    // A navigation away cancels what the old page was still loading: the browser's doing, not a fault.
    if (failure === 'net::ERR_ABORTED') return;
    if (allowed.failures.some((pattern) => pattern.test(url))) return;
    found.push(`request failed (${failure}): ${request.method()} ${url}`);
  });
}

export const test = base.extend<{ problems: Problems; _watchContexts: void }>({
  problems: async ({ browserName: _ }, provide) => {
    await provide({
      allowResponse: () => undefined,
      allowRequestFailure: () => undefined,
      allowConsole: () => undefined,
    });
  },
  _watchContexts: [
    async ({ context, browser, problems }, provide, testInfo) => {
      const allowed: Allowed = { responses: [], failures: [], console: [] };
      problems.allowResponse = (url, ...statuses) => allowed.responses.push({ url, statuses });
      problems.allowRequestFailure = (url) => allowed.failures.push(url);
      problems.allowConsole = (text) => allowed.console.push(text);
      const found: string[] = [];
      watch(context, allowed, found);
      // Contexts the test opens itself (a second browser for the admin) are watched the same way.
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args) => {
        const opened = await newContext(...args);
        watch(opened, allowed, found);
        return opened;
      };
      await provide();
      browser.newContext = newContext;
      if (found.length > 0 && testInfo.status === testInfo.expectedStatus) {
        throw new Error(
          `unexpected console messages or failed requests (declare the ones the test causes with problems.allow…):\n  ${found.join('\n  ')}`,
        );
      }
    },
    { auto: true },
  ],
});

// Everything else of Playwright's, so a spec imports from here alone; this `test` shadows Playwright's.
export * from '@playwright/test';
export { expect };

import { afterEach, beforeEach, vi } from 'vitest';

/**
 * Web tests guard themselves: a test fails when anything it ran called console.error (React's act and key
 * warnings included) without the test declaring it with expectConsoleError, and when the app sent a request
 * that no handler of the test answered. Installed once, for every test, by vitest.setup.ts.
 */
type Expected = { pattern: string | RegExp; seen: number };

let expected: Expected[] = [];
let unexpected: string[] = [];
let unanswered: string[] = [];

function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

const matches = (pattern: string | RegExp, text: string) => (typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text));

/**
 * Declares that this test makes the app log an error on purpose (a load failure the screen only logs): a
 * console.error whose text contains the string, or matches the pattern, is then expected rather than a
 * failure, and the test fails if none comes.
 */
export function expectConsoleError(pattern: string | RegExp) {
  expected.push({ pattern, seen: 0 });
}

/** Records a request no handler of the test answered (the test fails when it ends). */
export function reportUnanswered(request: string) {
  unanswered.push(request);
}

export function installTestGuards() {
  const original = console.error;

  beforeEach(() => {
    expected = [];
    unexpected = [];
    unanswered = [];
    console.error = (...args: unknown[]) => {
      const text = args.map(describe).join(' ');
      const declared = expected.find((entry) => matches(entry.pattern, text));
      if (declared) {
        declared.seen += 1;
        return;
      }
      unexpected.push(text);
      original(...args);
    };
    // A test that mocks no API at all still must not reach the network.
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const request = `${(init.method ?? 'GET').toUpperCase()} ${String(input)}`;
      reportUnanswered(request);
      throw new TypeError(`No test handler answers ${request}`);
    });
  });

  afterEach(() => {
    console.error = original;
    const problems = [
      ...unexpected.map((text) => `console.error: ${text}`),
      ...unanswered.map((request) => `no handler answered ${request}`),
      ...expected.filter((entry) => entry.seen === 0).map((entry) => `expected a console.error matching ${String(entry.pattern)}, none came`),
    ];
    if (problems.length > 0) throw new Error(`The test left problems behind:\n${problems.join('\n')}`);
  });
}

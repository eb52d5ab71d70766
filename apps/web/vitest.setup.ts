import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, vi } from 'vitest';
import { installTestGuards } from './src/testing/test-guards';
import { loadMemberTexts } from './src/lib/i18n';

// The web tests share two cores with the API suites in one run; a lazily loaded route (the dashboard pulls in
// the chart library) can take longer than Testing Library's 1 s default to appear there, without being wrong.
configure({ asyncUtilTimeout: 5000 });

// The member's and the admin's screens are rendered alone here, without the route that loads their texts first.
await loadMemberTexts();

// jsdom has no matchMedia; react-hot-toast and the sidebar ask it about motion and width.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// jsdom has no ResizeObserver; the charts' responsive containers ask for one.
if (!window.ResizeObserver) {
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// jsdom does not scroll; the router's scroll restoration calls this on every navigation.
window.scrollTo = () => {};

installTestGuards();

// Testing Library cleans up by itself only when the test globals are on; here they are not.
afterEach(() => {
  cleanup();
  toast.remove();
  localStorage.clear();
  sessionStorage.clear();
  document.documentElement.className = '';
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// Finds Debian's Chromium for the browser tests, installing it with apt-get when we are root.
// Playwright never downloads a browser here: the machine's network reaches only package registries.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p) => p !== undefined);

export function findChromium() {
  return candidates.find((p) => existsSync(p));
}

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(
      'Chromium is missing for the browser tests. Install Debian\'s package as root (apt-get install -y chromium) ' +
        'or set CHROMIUM_PATH to a Chromium binary.',
    );
  }
  console.log('Chromium is missing: installing Debian\'s chromium package with apt-get…');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
  const installed = findChromium();
  if (!installed) throw new Error('apt-get finished but /usr/bin/chromium is still missing');
  return installed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(ensureChromium());
}

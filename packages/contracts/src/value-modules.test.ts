import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The modules a member's first screens take their values from (amount formatting, constants, messages, asset
 * addresses, notification links). They must not load zod, directly or through another module: its schemas cost
 * a slow phone's first screen more than a hundred milliseconds (issue 17). apps/web/vite.config.ts bundles them
 * in one chunk of their own (CONTRACT_VALUES).
 */
const VALUE_MODULES = ['constants', 'messages', 'money-format', 'project-assets', 'notification-types', 'kyc-documents', 'contact'];

describe('the contracts modules with values and no schemas', () => {
  it.each(VALUE_MODULES)('%s imports neither zod nor a module with schemas', (name) => {
    const source = readFileSync(path.join(import.meta.dirname, `${name}.ts`), 'utf8');
    const imported = [...source.matchAll(/^import[^;]*?from '([^']+)'/gm)].map((m) => m[1]!);
    for (const specifier of imported) {
      expect(specifier, `${name}.ts imports ${specifier}`).toMatch(/^\.\//);
      expect(VALUE_MODULES, `${name}.ts imports ${specifier}`).toContain(specifier.slice(2));
    }
    expect(source).not.toMatch(/\bz\./);
  });
});

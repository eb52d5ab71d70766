import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VALUE_MODULES } from './value-modules';

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

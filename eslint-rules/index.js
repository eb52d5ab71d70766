// The project's own lint rules: what holds the layout's shape (issue 13), small enough to read in one go.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const relative = (file) => path.relative(root, file).split(path.sep).join('/');

/** Every import, re-export and dynamic import() with a literal path: its node and the path written. */
function eachImport(context, check) {
  const source = (node) => {
    if (node.source?.type === 'Literal' && typeof node.source.value === 'string') check(node.source, node.source.value);
  };
  return {
    ImportDeclaration: source,
    ExportNamedDeclaration: source,
    ExportAllDeclaration: source,
    ImportExpression: source,
  };
}

/**
 * A folder of units (apps/api/src/modules, apps/web/src/features) whose members, and the files outside the folder
 * that the rule is given, reach a unit only through its public entry: `<units>/<b>` or `<units>/<b>/index`, never `<units>/<b>/<deeper file>`.
 * Options: { units: 'apps/api/src/modules', aliases: { '@/': 'apps/web/src/' } } (paths from the repo root).
 */
const unitBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'A unit imports another unit only through its index.ts' },
    schema: [
      {
        type: 'object',
        properties: { units: { type: 'string' }, aliases: { type: 'object', additionalProperties: { type: 'string' } } },
        required: ['units'],
        additionalProperties: false,
      },
    ],
    messages: {
      deep: "'{{path}}' reaches inside {{units}}/{{target}}: import it through {{units}}/{{target}}/index.ts instead.",
    },
  },
  create(context) {
    const { units, aliases = {} } = context.options[0];
    const unitOf = (file) => {
      const rest = relative(file).slice(units.length + 1);
      return relative(file).startsWith(`${units}/`) ? rest.split('/') : undefined;
    };
    // A file outside the units (app.ts, a plugin, a job) is held to the same entries as a unit is.
    const here = unitOf(context.filename) ?? [];
    if (here.length === 1) return {};
    const resolve = (spec) => {
      if (spec.startsWith('.')) return path.resolve(path.dirname(context.filename), spec);
      const alias = Object.keys(aliases).find((prefix) => spec.startsWith(prefix));
      return alias === undefined ? undefined : path.join(root, aliases[alias], spec.slice(alias.length));
    };
    return eachImport(context, (node, spec) => {
      const target = resolve(spec);
      const parts = target && unitOf(target);
      if (!parts || parts[0] === here[0]) return;
      const inner = parts.slice(1).join('/').replace(/\.(ts|tsx|js)$/, '');
      if (inner === '' || inner === 'index') return;
      context.report({ node, messageId: 'deep', data: { path: spec, units, target: parts[0] } });
    });
  },
};

/** kebab-case words, with dots only between role suffixes: `wallet.routes.ts`, `use-focus-trap.test.tsx`. */
const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)*$/;

const kebabCaseFiles = {
  meta: {
    type: 'suggestion',
    docs: { description: 'File names are kebab-case; dots separate role suffixes' },
    schema: [],
    messages: { name: "File name '{{name}}' is not kebab-case (lower-case words joined by '-', dots for role suffixes)." },
  },
  create(context) {
    return {
      Program(node) {
        const name = path.basename(context.filename);
        if (!KEBAB.test(name)) context.report({ node, loc: { line: 1, column: 0 }, messageId: 'name', data: { name } });
      },
    };
  },
};

export const terrafund = { meta: { name: 'terrafund' }, rules: { 'unit-boundaries': unitBoundaries, 'kebab-case-files': kebabCaseFiles } };

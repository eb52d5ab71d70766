#!/usr/bin/env bash
# The unit and API suites on Node 24, the Node the production image runs (Dockerfile), beside the machine's own
# Node that `npm test` uses. Node 24 comes from the npm registry's `node` package (its binary is a registry
# package too: no other download), kept in a folder outside the repository between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${NODE24_PREFIX:-${TMPDIR:-/tmp}/terrafund-node24}"
if [ ! -x "$prefix/node_modules/.bin/node" ]; then
  npm install --no-audit --no-fund --no-save --prefix "$prefix" node@24
fi
node24="$prefix/node_modules/.bin/node"
echo "unit and API suites on $("$node24" --version)"
projects=(--project contracts --project web --project 'api (pglite)')
if [ -n "${DATABASE_URL:-}" ]; then projects+=(--project 'api (postgres)'); fi
PATH="$(dirname "$(readlink -f "$node24")"):$PATH" "$node24" node_modules/vitest/vitest.mjs run "${projects[@]}"

import { productionVerdict, productionWarnings } from '../config';

/**
 * `npm run check-config`: would NODE_ENV=production start with this environment? Prints each refusal (the
 * same lines the server prints when it refuses) or says it is fine, and exits 1 when it would refuse. It only
 * reads the environment: nothing starts, nothing is written (not even a generated APP_SECRET).
 */
function main() {
  const env = process.env;
  const mode = env.NODE_ENV?.trim() || 'development';
  const problems = productionVerdict(env);
  if (mode !== 'production') {
    console.log(`NODE_ENV is ${mode}: the server would start in ${mode} mode. The verdict below is for NODE_ENV=production.`);
  }
  for (const warning of productionWarnings(env)) console.log(`Warning: ${warning}`);
  if (problems.length === 0) {
    console.log('Production check: fine. NODE_ENV=production would start with this environment.');
    return;
  }
  console.log(`Production check: NODE_ENV=production would refuse to start (${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}):`);
  for (const problem of problems) console.log(`  ${problem}`);
  process.exitCode = 1;
}

main();

import { DEFAULT_WITHDRAWAL_ASSETS, withdrawalAssetListSchema, type PayoutProviderId } from '@terrafund/contracts';
import { passwordStrengthProblem } from '@terrafund/contracts/password-strength';
import { PAYOUT_PROVIDER_NAMES, payoutProviderSends, schemaProblems, setting } from './config-env';
import { isLocalNetworkHost } from './lib/local-host';

/*
 * The production verdict (docs/security.md): what NODE_ENV=production refuses or warns about, from the raw
 * variables, beside the environment's schema (config-env.ts) and the Config it becomes (config.ts).
 */

/** Hosts a PUBLIC_URL may name over plain http (a developer's own machine). */
const LOCAL_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * What NODE_ENV=production refuses to start with, one line each naming the variable (docs/security.md): each
 * would reopen a hole that development tolerates. Read from the raw variables, so `npm run check-config`
 * can give the verdict for any environment without starting anything or writing a secret to disk.
 */
function productionRefusals(env: NodeJS.ProcessEnv): string[] {
  const refusals: string[] = [];
  const refuse = (name: string, why: string) => refusals.push(`NODE_ENV=production refuses to start: ${name} ${why}`);

  const provider = setting(env, 'PAYMENT_PROVIDER');
  if (provider === undefined || provider === 'sandbox') {
    refuse(
      'PAYMENT_PROVIDER',
      `is ${provider ?? 'unset (sandbox)'}: the built-in sandbox settles packs without any payment; set PAYMENT_PROVIDER=btcpay or nowpayments`,
    );
  }
  const payout = setting(env, 'PAYOUT_PROVIDER');
  if (payout === undefined || payout === 'sandbox') {
    refuse(
      'PAYOUT_PROVIDER',
      `is ${payout ?? 'unset (sandbox)'}: the built-in sandbox pretends to send withdrawals without sending any coin; set PAYOUT_PROVIDER=btcpay, nowpayments or manual`,
    );
  } else if ((PAYOUT_PROVIDER_NAMES as readonly string[]).includes(payout)) {
    const assets = withdrawalAssetListSchema.safeParse(setting(env, 'WITHDRAWAL_ASSETS') ?? DEFAULT_WITHDRAWAL_ASSETS.join(','));
    const unsendable = assets.success ? assets.data.filter((asset) => !payoutProviderSends(payout as PayoutProviderId, asset)) : [];
    if (unsendable.length > 0) {
      refuse(
        'WITHDRAWAL_ASSETS',
        `lists ${unsendable.join(', ')}, which PAYOUT_PROVIDER=${payout} cannot send (BTCPay Server sends BTC and LTC only): remove ${unsendable.length === 1 ? 'it' : 'them'} or choose another payout provider`,
      );
    }
  }
  if (setting(env, 'SMTP_URL') === undefined) {
    refuse('SMTP_URL', 'is not set: mail (codes and reset links included) would only be printed to the log; set an smtp:// or smtps:// URL');
  }
  const secret = setting(env, 'APP_SECRET');
  if (secret === undefined) {
    refuse('APP_SECRET', 'is not set: set a random secret of at least 32 bytes, the same on every server');
  } else if (Buffer.byteLength(secret, 'utf8') < 32) {
    refuse('APP_SECRET', `is ${Buffer.byteLength(secret, 'utf8')} bytes long: it must be at least 32 bytes`);
  }
  const publicUrl = setting(env, 'PUBLIC_URL');
  // Unset, it is http://localhost:PORT, which is local.
  if (publicUrl !== undefined && !isSafePublicUrl(publicUrl)) {
    refuse('PUBLIC_URL', `is ${publicUrl}: mailed links and payment returns need an https:// address (only localhost and 127.0.0.1 may use http)`);
  }
  if (setting(env, 'METRICS_TOKEN') === undefined) {
    const metricsHost = setting(env, 'METRICS_HOST') ?? '127.0.0.1';
    if (setting(env, 'METRICS_PORT') === undefined) {
      refuse(
        'METRICS_TOKEN',
        'unset and no separate metrics listener: GET /metrics would be open on the public port; set METRICS_TOKEN, or METRICS_PORT (with METRICS_HOST a private address) to serve it apart',
      );
    } else if (!isLocalNetworkHost(metricsHost)) {
      refuse('METRICS_HOST', `is ${metricsHost}: without METRICS_TOKEN the metrics listener must be bound to an address of the deployment's own network (loopback, private or link-local, or a single-label name), or set METRICS_TOKEN`);
    }
  }
  if (setting(env, 'TRUST_PROXY')?.toLowerCase() === 'true') {
    refuse(
      'TRUST_PROXY',
      'is true, which trusts any X-Forwarded-For a client sends: set the number of proxy hops (e.g. 1) or the proxies\' addresses/CIDRs',
    );
  }
  for (const name of OUTBOUND_URLS) {
    const plain = plainHttpOrigin(setting(env, name));
    if (plain) {
      refuse(
        name,
        `is ${plain}: API keys and answers about money would travel in clear; use https:// (plain http only to localhost, a private address or a single-label name on your own network, such as http://minio:9000)`,
      );
    }
  }
  for (const name of WEBHOOK_SECRETS) {
    const secret = setting(env, name);
    if (secret !== undefined && [...secret].length < MIN_WEBHOOK_SECRET_LENGTH) {
      refuse(
        name,
        `is ${[...secret].length} characters long: a webhook secret must be at least ${MIN_WEBHOOK_SECRET_LENGTH} characters (set a long random one at the provider and here)`,
      );
    }
  }
  // The password rule members get (never the value itself in the line: it goes to logs).
  const adminPassword = env.ADMIN_PASSWORD;
  const adminPasswordProblem = adminPassword ? passwordStrengthProblem(adminPassword, [setting(env, 'ADMIN_EMAIL') ?? '']) : undefined;
  if (adminPasswordProblem) {
    refuse('ADMIN_PASSWORD', `is too easy to guess, which the password rule refuses (${adminPasswordProblem}): choose a long passphrase of uncommon words`);
  }
  return refusals;
}

/** The provider APIs and the bucket this server calls with its credentials. */
const OUTBOUND_URLS = ['BTCPAY_URL', 'NOWPAYMENTS_API_URL', 'S3_ENDPOINT'] as const;
/** The keys of the providers' notification signatures: short ones can be guessed offline from one signed body. */
const WEBHOOK_SECRETS = ['BTCPAY_WEBHOOK_SECRET', 'NOWPAYMENTS_IPN_SECRET'] as const;
const MIN_WEBHOOK_SECRET_LENGTH = 16;

/**
 * The origin of an http:// URL whose host is outside the deployment's own network (lib/local-host.ts), or
 * undefined when the URL is https, local, unset or unreadable (the schema names an unreadable one). Only the
 * origin is named, so credentials or a path in the URL stay out of the refusal.
 */
function plainHttpOrigin(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' && !isLocalNetworkHost(url.hostname) ? url.origin : undefined;
}

/** What production accepts but an operator should know about, one line each: printed by `npm run check-config`. */
export function productionWarnings(env: NodeJS.ProcessEnv): string[] {
  const warnings: string[] = [];
  const require2fa = setting(env, 'REQUIRE_ADMIN_2FA')?.toLowerCase();
  if (require2fa === 'false' || require2fa === '0' || require2fa === 'no') {
    warnings.push('REQUIRE_ADMIN_2FA is false: admins can use admin routes without two-factor sign-in (default in production: true)');
  }
  const smtpUrl = setting(env, 'SMTP_URL');
  if (smtpUrl?.startsWith('smtp://') && !requiresTls(smtpUrl)) {
    warnings.push(
      'SMTP_URL is smtp:// without requireTLS=true: mail (codes and reset links) is sent in clear if the server does not offer STARTTLS; use smtps:// or add ?requireTLS=true',
    );
  }
  return warnings;
}

/**
 * Whether nodemailer, given this URL (modules/mail/mail.transport.ts passes SMTP_URL as it is), refuses to
 * send without STARTTLS: it reads `requireTLS` from the query and turns exactly `true` into the boolean.
 */
function requiresTls(smtpUrl: string): boolean {
  try {
    const values = new URL(smtpUrl).searchParams.getAll('requireTLS');
    return values.length === 1 && values[0] === 'true';
  } catch {
    return false;
  }
}

function isSafePublicUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));
  } catch {
    return false; // the schema names it as invalid too
  }
}

/**
 * Every reason the server would not start with `env` under NODE_ENV=production: the schema's complaints and
 * the production refusals, a variable named once (a too-short APP_SECRET is one problem, not two).
 */
export function productionVerdict(env: NodeJS.ProcessEnv): string[] {
  const invalid = schemaProblems({ ...env, NODE_ENV: 'production' });
  const named = (line: string, name: string) => line.includes(` ${name}:`) || line.includes(` ${name} `);
  const refusals = productionRefusals(env).filter((refusal) => {
    const name = /refuses to start: ([A-Z_]+) /.exec(refusal)?.[1] ?? '';
    return !invalid.some((line) => named(line, name));
  });
  return [...invalid, ...refusals];
}


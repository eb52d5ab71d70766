import { normalizeIP } from '@fastify/rate-limit';
import type { Deps } from '../../deps';
import { secondsUntil, tooManyRequests } from '../../lib/rate-limiter';

/**
 * Failed sign-ins, counted three ways (docs/decisions.md, Limits): per account and address together (what
 * stops guessing at one account from one place), per address (one place guessing at many accounts), and per
 * account far above those (a guesser spread over many addresses). An attacker's failures therefore never lock
 * the owner out from another address. Unknown addresses count exactly like known ones.
 */
type ThrottleDeps = Pick<Deps, 'throttles' | 'clock' | 'config'>;

/** IPv6 clients by /64: one subscriber usually holds the whole block. */
const client = (ip: string) => normalizeIP(ip);
const accountGroup = (email: string) => `login-account:${email}`;
const keys = (email: string, ip: string) => ({
  pair: `login-fail:pair:${email}|${client(ip)}`,
  address: `login-fail:address:${client(ip)}`,
  account: `login-fail:account:${email}`,
});

/** Refuses (429) a sign-in whose pair, address or account has used up its failures. */
export async function assertLoginAllowed(deps: ThrottleDeps, email: string, ip: string) {
  const k = keys(email, ip);
  const limits = deps.config.rateLimits;
  const [pair, address, account] = await deps.throttles.peek([k.pair, k.address, k.account]);
  const now = deps.clock.now().getTime();
  const blocked = [
    { window: pair!, limit: limits.loginFailuresPerPair.limit },
    { window: address!, limit: limits.loginFailuresPerAddress.limit },
    { window: account!, limit: limits.loginFailuresPerAccount.limit },
  ].filter(({ window, limit }) => window.count >= limit);
  if (blocked.length > 0) {
    throw tooManyRequests(Math.max(...blocked.map(({ window }) => secondsUntil(window.resetAt, now))));
  }
}

export async function recordLoginFailure(deps: ThrottleDeps, email: string, ip: string) {
  const k = keys(email, ip);
  const limits = deps.config.rateLimits;
  await Promise.all([
    deps.throttles.hit(k.pair, limits.loginFailuresPerPair.windowSeconds, accountGroup(email)),
    deps.throttles.hit(k.address, limits.loginFailuresPerAddress.windowSeconds),
    deps.throttles.hit(k.account, limits.loginFailuresPerAccount.windowSeconds, accountGroup(email)),
  ]);
}

/** The right password from this address: its own failures and the account's run of failures end. */
export async function recordLoginSuccess(deps: ThrottleDeps, email: string, ip: string) {
  const k = keys(email, ip);
  await deps.throttles.clear([k.pair, k.account]);
}

/** A successful password reset: the account's failures from every address are forgotten. */
export async function clearLoginFailures(deps: Pick<Deps, 'throttles'>, email: string) {
  await deps.throttles.clearGroup(accountGroup(email));
}

/**
 * The 60-second cooldown between verification codes, per address whether or not it has an account, so a
 * resend answers alike for both. Returns the seconds left when a code was sent too recently.
 */
export async function takeCodeCooldown(deps: Pick<Deps, 'throttles' | 'clock'>, email: string, seconds: number) {
  const window = await deps.throttles.hit(`code-cooldown:${email}`, seconds);
  return window.count > 1 ? secondsUntil(window.resetAt, deps.clock.now().getTime()) : undefined;
}

/** A registration always mails a fresh code, and the cooldown starts again from it. */
export async function restartCodeCooldown(deps: Pick<Deps, 'throttles'>, email: string, seconds: number) {
  await deps.throttles.clear([`code-cooldown:${email}`]);
  await deps.throttles.hit(`code-cooldown:${email}`, seconds);
}

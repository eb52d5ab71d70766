import { createHmac } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { invoiceInput } from '../../../test/invoice-input';
import { AppError } from '../../lib/app-error';
import { fixedClock, type FixedClock } from '../../lib/clock';
import { createSandboxProvider, memorySandboxStore, type SandboxProvider, type SandboxStore } from './sandbox.provider';

const SECRET = 'sandbox-secret-1';
const input = invoiceInput('sandbox', {
  amountCents: 250_000,
  description: 'Terrafund gold pack',
  returnUrl: 'https://app.terrafund.test/api/payments/return/sandbox?invoice={InvoiceId}',
});
const expected = { orderId: 'tx-0001', amountCents: 250_000 };

let clock: FixedClock;
let store: SandboxStore;
let sandbox: SandboxProvider;

beforeEach(() => {
  clock = fixedClock('2026-01-05T12:00:00Z');
  store = memorySandboxStore();
  sandbox = createSandboxProvider({ publicUrl: 'https://app.terrafund.test/', secret: SECRET, store, clock });
});

const conflict = (message: string) => expect.objectContaining({ code: 'CONFLICT', status: 409, message });

describe('sandbox provider', () => {
  it('creates an invoice whose checkout page is ours, expiring after the configured minutes', async () => {
    const created = await sandbox.createInvoice(input);
    const url = new URL(created.paymentUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`https://app.terrafund.test/api/payments/sandbox/checkout/${created.invoiceId}`);
    // The checkout's capability: 256 bits the provider recognises, in constant time, and nothing else does.
    const key = url.searchParams.get('key')!;
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sandbox.checkoutKeyMatches(created.invoiceId, key)).toBe(true);
    for (const wrong of [undefined, '', key.slice(1), `${key}A`, key.toLowerCase() === key ? key.toUpperCase() : key.toLowerCase()]) {
      expect(sandbox.checkoutKeyMatches(created.invoiceId, wrong)).toBe(false);
    }
    // Neither the form token nor another invoice's key opens it.
    expect(sandbox.checkoutKeyMatches(created.invoiceId, sandbox.formToken(created.invoiceId))).toBe(false);
    expect(sandbox.formTokenMatches(created.invoiceId, key)).toBe(false);
    expect(sandbox.formTokenMatches(created.invoiceId, sandbox.formToken(created.invoiceId))).toBe(true);
    const another = createSandboxProvider({ publicUrl: 'https://app.terrafund.test', secret: 'another-secret', store, clock });
    expect(another.checkoutKeyMatches(created.invoiceId, key)).toBe(false);
    expect(created.expiresAt).toEqual(new Date('2026-01-05T12:30:00Z'));
    expect(await sandbox.getInvoice(created.invoiceId)).toMatchObject({ status: 'New', orderId: 'tx-0001', amountCents: 250_000 });
    expect(await sandbox.fetchStatus({ invoiceId: created.invoiceId, expected })).toMatchObject({ state: 'pending', rawStatus: 'New' });

    const quick = createSandboxProvider({ publicUrl: 'https://app.terrafund.test', secret: SECRET, store, clock, expiresInMinutes: 2 });
    expect((await quick.createInvoice(input)).expiresAt).toEqual(new Date('2026-01-05T12:02:00Z'));
  });

  it('pays: a signed notification that verifies, then fetchStatus says settled', async () => {
    const { invoiceId } = await sandbox.createInvoice(input);
    const sent = await sandbox.pay(invoiceId);

    // Signed exactly like BTCPay: sha256=<hex HMAC-SHA256 of the raw bytes>, here under Sandbox-Sig.
    expect(sent.headers['sandbox-sig']).toBe(`sha256=${createHmac('sha256', SECRET).update(sent.body).digest('hex')}`);
    expect(JSON.parse(sent.body.toString())).toMatchObject({ type: 'InvoiceSettled', invoiceId, metadata: { orderId: 'tx-0001' } });

    const verified = sandbox.verifyNotification(sent.body, sent.headers);
    expect(verified).toMatchObject({ invoiceId, orderId: 'tx-0001', type: 'InvoiceSettled', known: true });
    expect(sandbox.verifyNotification(sent.body, sent.headers)?.deliveryKey).toBe(verified?.deliveryKey);

    expect(await sandbox.fetchStatus({ invoiceId, expected })).toEqual({
      state: 'settled',
      invoiceId,
      orderId: 'tx-0001',
      amountCents: 250_000,
      currency: 'USD',
      rawStatus: 'Settled',
      // The sandbox is paid in full, in dollars.
      paid: { amount: '2500.00', currency: 'USD' },
    });
  });

  it('refuses a tampered, re-serialised, wrongly keyed or unsigned notification', async () => {
    const { invoiceId } = await sandbox.createInvoice(input);
    const sent = await sandbox.pay(invoiceId);

    const tampered = Buffer.from(sent.body);
    tampered[tampered.indexOf('tx-0001') + 6] = '2'.charCodeAt(0);
    expect(sandbox.verifyNotification(tampered, sent.headers)).toBeNull();

    const compact = Buffer.from(JSON.stringify(JSON.parse(sent.body.toString())));
    expect(sandbox.verifyNotification(compact, sent.headers)).toBeNull();

    const other = createSandboxProvider({ publicUrl: 'https://x.test', secret: 'another-secret', store, clock });
    expect(other.verifyNotification(sent.body, sent.headers)).toBeNull();

    expect(sandbox.verifyNotification(sent.body, { 'content-type': 'application/json' })).toBeNull();
    // The BTCPay header name is not the sandbox's: the two secrets never stand in for each other.
    expect(sandbox.verifyNotification(sent.body, { 'btcpay-sig': sent.headers['sandbox-sig'] })).toBeNull();
  });

  it('expires on request: a signed InvoiceExpired, then fetchStatus says expired', async () => {
    const { invoiceId } = await sandbox.createInvoice(input);
    const sent = await sandbox.expire(invoiceId);
    expect(sandbox.verifyNotification(sent.body, sent.headers)).toMatchObject({ invoiceId, type: 'InvoiceExpired', known: true });
    expect(await sandbox.fetchStatus({ invoiceId, expected })).toMatchObject({ state: 'expired', rawStatus: 'Expired' });
    await expect(sandbox.pay(invoiceId)).rejects.toEqual(conflict('This invoice has expired'));
  });

  it('expires by itself when the clock passes the expiry; paying is then refused but expiring still notifies', async () => {
    const { invoiceId } = await sandbox.createInvoice(input);
    clock.advance(30 * 60_000 - 1);
    expect((await sandbox.fetchStatus({ invoiceId, expected })).state).toBe('pending');
    clock.advance(1);
    expect((await sandbox.fetchStatus({ invoiceId, expected })).state).toBe('expired');
    expect((await sandbox.getInvoice(invoiceId)).status).toBe('Expired');
    await expect(sandbox.pay(invoiceId)).rejects.toEqual(conflict('This invoice has expired'));

    const sent = await sandbox.expire(invoiceId);
    expect(sandbox.verifyNotification(sent.body, sent.headers)?.type).toBe('InvoiceExpired');
  });

  it('closes an invoice once: a second pay or an expiry after payment is refused', async () => {
    const { invoiceId } = await sandbox.createInvoice(input);
    const results = await Promise.allSettled([sandbox.pay(invoiceId), sandbox.pay(invoiceId)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    await expect(sandbox.pay(invoiceId)).rejects.toEqual(conflict('This invoice is already paid'));
    await expect(sandbox.expire(invoiceId)).rejects.toEqual(conflict('This invoice is already paid'));
    clock.advance(60 * 60_000);
    expect((await sandbox.fetchStatus({ invoiceId, expected })).state).toBe('settled');
  });

  it('sends a paid invoice for another order or amount to review', async () => {
    const { invoiceId } = await sandbox.createInvoice(input);
    await sandbox.pay(invoiceId);
    expect(await sandbox.fetchStatus({ invoiceId, expected: { ...expected, amountCents: 70_000 } })).toMatchObject({
      state: 'review',
      reviewReason: 'mismatch',
    });
    expect(await sandbox.fetchStatus({ invoiceId, expected: { ...expected, orderId: 'tx-9999' } })).toMatchObject({
      state: 'review',
    });
  });

  it('answers 404 for an unknown invoice', async () => {
    for (const call of [() => sandbox.pay('nope'), () => sandbox.expire('nope'), () => sandbox.getInvoice('nope'), () => sandbox.fetchStatus({ invoiceId: 'nope', expected })]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    }
  });
});

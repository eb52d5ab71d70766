import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/lib/clock';
import { startBtcpayFake, type BtcpayFake } from './btcpay-greenfield-fake';
import { startNowpaymentsFake, type NowpaymentsFake } from './nowpayments-payout-fake';

/**
 * The fakes refuse what the real APIs refuse, so tests of the withdrawal flow that pass against them would not
 * pass by accident. Raw requests here, independent of the adapters.
 */
const ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

describe('the BTCPay Greenfield fake', () => {
  let fake: BtcpayFake;
  afterEach(() => fake.close());
  const send = async (method: string, path: string, body?: unknown, key = fake.apiKey) => {
    const response = await fetch(`${fake.url}${path}`, {
      method,
      headers: { authorization: `token ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json().catch(() => undefined)) as unknown };
  };
  const pullPayment = (overrides: Record<string, unknown> = {}) => ({ name: 'W', amount: '29.00', currency: 'USD', payoutMethods: ['BTC-CHAIN'], autoApproveClaims: false, ...overrides });

  it('checks the key and the permission of each endpoint', async () => {
    fake = await startBtcpayFake({ permissions: ['btcpay.store.canviewpayouts'] });
    expect(await send('GET', `/api/v1/stores/${fake.storeId}/payouts`, undefined, 'nope')).toMatchObject({ status: 401, json: { code: 'unauthenticated' } });
    expect(await send('POST', `/api/v1/stores/${fake.storeId}/pull-payments`, pullPayment())).toMatchObject({
      status: 403,
      json: { code: 'missing-permission', missingPermission: 'btcpay.store.cancreatenonapprovedpullpayments' },
    });
    expect((await send('GET', `/api/v1/stores/${fake.storeId}/payouts`)).status).toBe(200);
  });

  it('validates pull payments with 422 [{path, message}]', async () => {
    fake = await startBtcpayFake();
    const store = `/api/v1/stores/${fake.storeId}`;
    expect(await send('POST', `${store}/pull-payments`, pullPayment({ amount: '0' }))).toMatchObject({ status: 422, json: [{ path: 'amount' }] });
    expect(await send('POST', `${store}/pull-payments`, pullPayment({ payoutMethods: undefined }))).toMatchObject({ status: 422, json: [{ path: 'payoutMethods' }] });
    expect(await send('POST', `${store}/pull-payments`, pullPayment({ payoutMethods: ['ETH-CHAIN'] }))).toMatchObject({ status: 422, json: [{ path: 'payoutMethods[0]' }] });
    expect(await send('POST', `${store}/pull-payments`, pullPayment({ name: 'x'.repeat(51) }))).toMatchObject({ status: 422, json: [{ path: 'name' }] });
  });

  it('refuses payouts as Greenfield does: bad destination, overdraft, same address twice, archived', async () => {
    fake = await startBtcpayFake();
    const store = `/api/v1/stores/${fake.storeId}`;
    const { json: pp } = (await send('POST', `${store}/pull-payments`, pullPayment())) as { json: { id: string } };
    const payout = (overrides: Record<string, unknown> = {}) => ({ pullPaymentId: pp.id, destination: ADDRESS, amount: '20.00', payoutMethodId: 'BTC-CHAIN', approved: true, ...overrides });
    expect(await send('POST', `${store}/payouts`, payout({ destination: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7' }))).toMatchObject({ status: 422, json: [{ path: 'destination' }] });
    expect(await send('POST', `${store}/payouts`, payout({ payoutMethodId: 'nope' }))).toMatchObject({ status: 422, json: [{ path: 'payoutMethodId' }] });
    expect(await send('POST', `${store}/payouts`, payout({ pullPaymentId: 'missing' }))).toMatchObject({ status: 404, json: { code: 'pullpayment-not-found' } });
    expect(await send('POST', `${store}/payouts`, payout({ payoutMethodId: 'LTC-CHAIN', destination: 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9' }))).toMatchObject({ status: 400, json: { code: 'payment-method-not-supported' } });
    const first = (await send('POST', `${store}/payouts`, payout())) as { status: number; json: { id: string; state: string } };
    expect(first).toMatchObject({ status: 200, json: { state: 'AwaitingPayment', payoutAmount: '0.00020000', originalAmount: '20.00', originalCurrency: 'USD' } });
    expect(await send('POST', `${store}/payouts`, payout())).toMatchObject({ status: 400, json: { code: 'duplicate-destination' } });
    fake.complete(first.json.id);
    expect(await send('POST', `${store}/payouts`, payout())).toMatchObject({ status: 400, json: { code: 'overdraft' } });
    expect((await send('DELETE', `${store}/pull-payments/${pp.id}`)).status).toBe(200);
    expect(await send('POST', `${store}/payouts`, payout({ amount: '1.00' }))).toMatchObject({ status: 400, json: { code: 'archived' } });
    expect(await send('GET', `${store}/payouts/nope`)).toMatchObject({ status: 404, json: { code: 'payout-not-found' } });
  });
});

describe('the NOWPayments payout fake', () => {
  let fake: NowpaymentsFake;
  afterEach(() => fake.close());
  const clock = fixedClock('2026-03-02T09:00:10Z');
  const jwt = async () => {
    const response = await fetch(`${fake.url}/v1/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: fake.email, password: fake.password }) });
    return ((await response.json()) as { token: string }).token;
  };
  const send = async (method: string, path: string, body: unknown, headers: Record<string, string>) => {
    const response = await fetch(`${fake.url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    let json: unknown = text;
    try {
      json = JSON.parse(text);
    } catch {
      // "OK" from verify
    }
    return { status: response.status, json };
  };
  const withdrawal = (overrides: Record<string, unknown> = {}) => ({ address: ADDRESS, currency: 'btc', fiat_amount: 29, fiat_currency: 'usd', unique_external_id: 'w1', ...overrides });

  it('needs the API key and a live JWT, which lasts 5 minutes', async () => {
    fake = await startNowpaymentsFake({ clock });
    const token = await jwt();
    const body = { withdrawals: [withdrawal()] };
    expect(await send('POST', '/v1/payout', body, { 'x-api-key': fake.apiKey })).toMatchObject({ status: 401, json: { status: false, statusCode: 401 } });
    expect(await send('POST', '/v1/payout', body, { 'x-api-key': 'nope', authorization: `Bearer ${token}` })).toMatchObject({ status: 403, json: { code: 'INVALID_API_KEY' } });
    clock.advance(5 * 60_000);
    expect(await send('POST', '/v1/payout', body, { 'x-api-key': fake.apiKey, authorization: `Bearer ${token}` })).toMatchObject({ status: 401 });
    expect(fake.batches.size).toBe(0);
  });

  it('validates withdrawals and verifies with the TOTP of the 2FA secret, at most 10 tries', async () => {
    fake = await startNowpaymentsFake({ clock });
    const headers = { 'x-api-key': fake.apiKey, authorization: `Bearer ${await jwt()}` };
    expect(await send('POST', '/v1/payout', { withdrawals: [] }, headers)).toMatchObject({ status: 400, json: { status: false, code: 'INVALID_REQUEST_PARAMS' } });
    expect(await send('POST', '/v1/payout', { withdrawals: [withdrawal({ currency: 'doge' })] }, headers)).toMatchObject({ status: 400 });
    expect(await send('POST', '/v1/payout', { withdrawals: [withdrawal({ address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' })] }, headers)).toMatchObject({ status: 400 });
    expect(await send('POST', '/v1/payout', { withdrawals: [withdrawal({ fiat_currency: 'eur' })] }, headers)).toMatchObject({ status: 400 });
    const created = (await send('POST', '/v1/payout', { withdrawals: [withdrawal()] }, headers)) as { status: number; json: { id: string; withdrawals: { status: string; amount: string }[] } };
    expect(created).toMatchObject({ status: 200, json: { withdrawals: [{ status: 'WAITING', amount: '0.00029', batch_withdrawal_id: created.json.id, unique_external_id: 'w1' }] } });
    const verify = (code: string) => send('POST', `/v1/payout/${created.json.id}/verify`, { verification_code: code }, headers);
    for (let i = 0; i < 10; i += 1) expect((await verify('000000')).status).toBe(400);
    expect(await verify(fake.totpAt())).toMatchObject({ status: 400, json: { message: 'Too many verification attempts' } });
    const second = (await send('POST', '/v1/payout', { withdrawals: [withdrawal({ unique_external_id: 'w2' })] }, headers)) as { json: { id: string } };
    expect(await send('POST', `/v1/payout/${second.json.id}/verify`, { verification_code: fake.totpAt() }, headers)).toEqual({ status: 200, json: 'OK' });
    expect(fake.batches.get(second.json.id)?.verified).toBe(true);
  });
});

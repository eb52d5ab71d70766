import { and, eq, sql } from 'drizzle-orm';
import { unzipSync, strFromU8 } from 'fflate';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import {
  messages,
  NOTIFICATION_PREFERENCE_DEFAULTS,
  STATEMENT_HEADER,
  type DataExport,
  type NotificationPreferences,
  type PublicUser,
} from '@terrafund/contracts';
import { createProject, creditWallet } from '../../../test/project-fixtures';
import { insertMembership, startDeposit } from '../../../test/memberships';
import { apiCaller, createUser, DEFAULT_PASSWORD, loginAs, randomId, rows, uniqueEmail, useAdmin, useTestApp, type TestContext } from '../../../test/test-app';
import { auditLog, dataExports, kycDocuments, kycProfiles, notifications, sessions, transactions, users } from '../../db/schema';
import { fixedClock } from '../../lib/clock';
import { enqueueMail, unsubscribeToken } from '../mail';
import { notify } from '../notifications';
import { processDataExports, purgeExpiredExports } from './data-export.service';
import { purgeExpiredKyc } from './kyc-retention.service';

const DAY_MS = 86_400_000;
/** A Tuesday, mid-day (UTC). */
const NOW = '2026-03-10T12:00:00.000Z';

const form = { 'content-type': 'application/x-www-form-urlencoded' };

function privacyHarness(ctx: TestContext) {
  const call = apiCaller(() => ctx);
  const member = async (overrides: Parameters<typeof createUser>[1] = {}) => {
    const user = await createUser(ctx, overrides);
    return { user, token: await loginAs(ctx, user.email) };
  };
  const mailTo = async (email: string) => (await ctx.deliverMail()).filter((m) => m.to === email);
  return { call, member, mailTo };
}

describe('notification preferences and unsubscribe (issue 34)', () => {
  const ctx = useTestApp({ clock: fixedClock(new Date(NOW)) });
  const { call, member, mailTo } = privacyHarness(ctx);

  it('starts with dividends and projects off, the others on', async () => {
    const { token } = await member();
    const response = await call('GET', '/users/notification-preferences', token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ dividends: false, kyc: true, withdrawals: true, payments: true, membership: true, projects: false });
    expect(response.json()).toEqual(NOTIFICATION_PREFERENCE_DEFAULTS);
  });

  it('PATCH changes any subset and answers the whole object, kept across reads', async () => {
    const { token } = await member();
    const first = await call('PATCH', '/users/notification-preferences', token, { dividends: true, kyc: false });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ ...NOTIFICATION_PREFERENCE_DEFAULTS, dividends: true, kyc: false });
    const second = await call('PATCH', '/users/notification-preferences', token, { projects: true });
    expect(second.json()).toEqual({ ...NOTIFICATION_PREFERENCE_DEFAULTS, dividends: true, kyc: false, projects: true });
    expect((await call('GET', '/users/notification-preferences', token)).json()).toEqual(second.json());
  });

  it('refuses a preference that is not a boolean, and a body that is not an object, with 400', async () => {
    const { token } = await member();
    for (const body of [{ dividends: 'yes' }, { kyc: 1 }, { projects: null }, [true]]) {
      const response = await call('PATCH', '/users/notification-preferences', token, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call('GET', '/users/notification-preferences', token)).json()).toEqual(NOTIFICATION_PREFERENCE_DEFAULTS);
  });

  it('puts the RFC 8058 headers on an optional mail, with a signed link under PUBLIC_URL, and none on security mail', async () => {
    const { user } = await member();
    await ctx.database.db.transaction(async (tx) => {
      await enqueueMail(tx, ctx.app.deps, user.email, 'kycApproved', { firstName: user.firstName, walletUrl: 'https://app.terrafund.test/wallet' });
      await enqueueMail(tx, ctx.app.deps, user.email, 'passwordChanged', { firstName: user.firstName });
    });
    const sent = await mailTo(user.email);
    const optional = sent.find((m) => /verified/.test(m.subject))!;
    const security = sent.find((m) => /password was changed/.test(m.subject))!;
    expect(optional.headers?.['List-Unsubscribe']).toMatch(/^<https:\/\/app\.terrafund\.test\/unsubscribe\?token=[^>]+>$/);
    expect(optional.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(optional.text).toContain('https://app.terrafund.test/unsubscribe?token=');
    expect(security.headers).toBeUndefined();
    expect(security.text).not.toContain('unsubscribe');
  });

  it('does not send an optional mail of a kind the member turned off; security mail still goes', async () => {
    const { user, token } = await member();
    await call('PATCH', '/users/notification-preferences', token, { kyc: false });
    await ctx.database.db.transaction(async (tx) => {
      await enqueueMail(tx, ctx.app.deps, user.email, 'kycApproved', { firstName: user.firstName, walletUrl: 'x' });
      await enqueueMail(tx, ctx.app.deps, user.email, 'passwordChanged', { firstName: user.firstName });
    });
    const sent = await mailTo(user.email);
    expect(sent.map((m) => m.subject)).toEqual([expect.stringContaining('password was changed')]);
  });

  it('one-click: a form POST of List-Unsubscribe=One-Click to the mailed link turns that kind off without signing in', async () => {
    const { user, token } = await member();
    await ctx.database.db.transaction((tx) =>
      enqueueMail(tx, ctx.app.deps, user.email, 'withdrawalDecided', { firstName: user.firstName, amount: '30.00', completed: true, walletUrl: 'x' }),
    );
    const [mail] = await mailTo(user.email);
    const link = new URL(mail!.headers!['List-Unsubscribe']!.slice(1, -1));
    const response = await ctx.app.inject({ method: 'POST', url: `${link.pathname}${link.search}`, headers: form, payload: 'List-Unsubscribe=One-Click' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ kind: 'withdrawals' });
    expect((await call('GET', '/users/notification-preferences', token)).json<NotificationPreferences>().withdrawals).toBe(false);
    // A client that posts multipart/form-data (RFC 8058 allows it) is answered alike.
    const multipart = await ctx.app.inject({
      method: 'POST',
      url: `${link.pathname}${link.search}`,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n',
    });
    expect(multipart.statusCode, multipart.body).toBe(200);
    // The next such mail is not sent at all.
    await ctx.database.db.transaction((tx) =>
      enqueueMail(tx, ctx.app.deps, user.email, 'withdrawalDecided', { firstName: user.firstName, amount: '30.00', completed: false, walletUrl: 'x' }),
    );
    expect(await mailTo(user.email)).toEqual([]);
  });

  it('POST /api/unsubscribe {token} (the web page) answers {kind, message} and turns the kind off', async () => {
    const { user, token } = await member();
    const response = await call('POST', '/unsubscribe', undefined, { token: unsubscribeToken(ctx.app.deps.secrets, user.id, 'membership') });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ kind: 'membership', message: messages.privacy.unsubscribed('membership') });
    expect((await call('GET', '/users/notification-preferences', token)).json<NotificationPreferences>().membership).toBe(false);
  });

  it('refuses a forged, altered or missing token with 400, on both addresses', async () => {
    const { user } = await member();
    const good = unsubscribeToken(ctx.app.deps.secrets, user.id, 'kyc');
    const forged = [
      good.replace('.kyc.', '.payments.'),
      `${randomId()}.kyc.${good.split('.')[2]}`,
      `${good.slice(0, -1)}${good.endsWith('0') ? '1' : '0'}`,
      'nonsense',
      '',
    ];
    for (const token of forged) {
      expect((await call('POST', '/unsubscribe', undefined, { token })).statusCode, token).toBe(400);
      const oneClick = await ctx.app.inject({ method: 'POST', url: `/unsubscribe?token=${encodeURIComponent(token)}`, headers: form, payload: 'List-Unsubscribe=One-Click' });
      expect(oneClick.statusCode, token).toBe(400);
    }
    expect((await call('POST', '/unsubscribe', undefined, {})).statusCode).toBe(400);
    expect((await ctx.app.inject({ method: 'POST', url: '/unsubscribe', headers: form, payload: 'List-Unsubscribe=One-Click' })).statusCode).toBe(400);
  });
});

describe('data export (issue 34)', () => {
  const ctx = useTestApp({ clock: fixedClock(new Date(NOW)) });
  const admin = useAdmin(ctx);
  const { call, member, mailTo } = privacyHarness(ctx);

  /** A member with a KYC record (decided by the admin, with a note the member must never see) and two documents. */
  async function memberWithData() {
    const { user, token } = await member({ phone: '+1 212 555 0199', kycStatus: 'rejected' });
    const front = Buffer.from('front-of-the-id');
    const proof = Buffer.from('%PDF-1.4 proof');
    const docs = [];
    for (const [type, bytes, contentType] of [['idFront', front, 'image/png'], ['proofOfAddress', proof, 'application/pdf']] as const) {
      const key = await ctx.storage.put('kyc', bytes);
      const [doc] = await ctx.database.db
        .insert(kycDocuments)
        .values({ userId: user.id, documentType: type, storageKey: key, contentType, sizeBytes: bytes.length, createdAt: ctx.clock.now() })
        .returning();
      docs.push(doc!);
    }
    await ctx.database.db.insert(kycProfiles).values({
      userId: user.id,
      firstName: 'Test',
      lastName: 'Member',
      dateOfBirth: '1990-04-01',
      nationality: 'US',
      address: '1 Main Street',
      city: 'Springfield',
      postalCode: '12345',
      country: 'US',
      idType: 'passport',
      idNumber: 'X1234567',
      documentIds: docs.map((d) => d.id),
      submittedAt: ctx.clock.now(),
      reviewedAt: ctx.clock.now(),
      reviewedBy: admin.id,
      rejectionReason: 'The photo is blurred',
    });
    await ctx.database.db.insert(auditLog).values([
      { actorId: admin.id, action: 'kyc.rejected', targetType: 'user', targetId: user.id, before: { kycStatus: 'pending' }, after: { kycStatus: 'rejected', rejectionReason: 'The photo is blurred' }, createdAt: ctx.clock.now() },
      { actorId: admin.id, action: 'payment.rejected', targetType: 'user', targetId: user.id, before: null, after: { state: 'failed', note: 'ADMIN-PRIVATE-NOTE' }, createdAt: ctx.clock.now() },
    ]);
    await notify(ctx.database.db, ctx.app.deps, user.id, 'kyc.rejected', { reason: 'The photo is blurred' }, `kyc:${user.id}`);
    await creditWallet(ctx, user.id, 1234);
    return { user, token, front, proof };
  }

  const requestExport = (token: string, body: unknown = { password: DEFAULT_PASSWORD }) => call('POST', '/users/data-export', token, body);

  it('asks for the step-up: no password or a wrong one is 400 and starts nothing', async () => {
    const { user, token } = await member();
    for (const body of [{}, { password: 'wrong password!' }]) {
      const response = await requestExport(token, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: messages.stepUp.passwordIncorrect });
    }
    expect(await ctx.database.db.select().from(dataExports).where(eq(dataExports.userId, user.id))).toEqual([]);
  });

  it('answers 202 pending, is ready within the request\'s background work, mails and notifies the member, and lists it', async () => {
    const { user, token } = await memberWithData();
    const started = await requestExport(token);
    expect(started.statusCode, started.body).toBe(202);
    const item = started.json<DataExport>();
    expect(item).toEqual({ id: expect.any(String), status: 'pending', createdAt: NOW, expiresAt: new Date(Date.parse(NOW) + 7 * DAY_MS).toISOString() });

    await processDataExports({ ...ctx.app.deps, storage: ctx.storage });
    const list = await call('GET', '/users/data-export', token);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([{ ...item, status: 'ready' }]);
    const mail = await mailTo(user.email);
    expect(mail.map((m) => m.subject)).toEqual([expect.stringContaining('Your data export is ready')]);
    expect(mail[0]!.headers).toBeUndefined();
    const bell = await ctx.database.db.select().from(notifications).where(and(eq(notifications.userId, user.id), eq(notifications.type, 'data.export_ready')));
    expect(bell).toHaveLength(1);
  });

  it('downloads a ZIP with every file the issue lists, and nothing secret, another member\'s or an admin\'s', async () => {
    const { user, token, front, proof } = await memberWithData();
    const { id } = (await requestExport(token)).json<DataExport>();
    await processDataExports({ ...ctx.app.deps, storage: ctx.storage });
    const response = await call('GET', `/users/data-export/${id}/download`, token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="terrafund-data-2026-03-10\.zip"$/);

    const files = unzipSync(new Uint8Array(response.rawPayload));
    const names = Object.keys(files).sort();
    expect(names).toEqual(
      expect.arrayContaining(['profile.json', 'transactions.csv', 'notifications.json', 'sessions.json', 'audit.json']),
    );
    const profile = JSON.parse(strFromU8(files['profile.json']!));
    expect(profile.user).toMatchObject({ _id: user.id, email: user.email, phone: '+1 212 555 0199', balance: 12.34 });
    expect(profile.kyc).toMatchObject({ dateOfBirth: '1990-04-01', address: '1 Main Street', idNumber: 'X1234567', rejectionReason: 'The photo is blurred' });
    const csv = strFromU8(files['transactions.csv']!).split('\r\n');
    expect(csv[0]).toBe(STATEMENT_HEADER.join(','));
    const audit = JSON.parse(strFromU8(files['audit.json']!));
    expect(audit).toEqual(expect.arrayContaining([expect.objectContaining({ action: 'kyc.rejected', by: 'an administrator', at: NOW })]));
    expect(JSON.parse(strFromU8(files['notifications.json']!))).toEqual([expect.objectContaining({ type: 'kyc.rejected' })]);
    expect(JSON.parse(strFromU8(files['sessions.json']!)).length).toBeGreaterThanOrEqual(1);
    // The documents, byte for byte as stored.
    const front_ = names.find((n) => n.startsWith('kyc-documents/idFront-'))!;
    const proof_ = names.find((n) => n.startsWith('kyc-documents/proofOfAddress-'))!;
    expect(Buffer.from(files[front_]!)).toEqual(front);
    expect(Buffer.from(files[proof_]!)).toEqual(proof);
    expect(front_).toMatch(/\.png$/);
    expect(proof_).toMatch(/\.pdf$/);
    // Nothing secret, nothing of an admin.
    const everything = names.filter((n) => !n.startsWith('kyc-documents/')).map((n) => strFromU8(files[n]!)).join('\n');
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    const [session] = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.id)).limit(1);
    for (const secret of [row!.passwordHash, session!.tokenHash, admin.email, admin.id, 'ADMIN-PRIVATE-NOTE', 'passwordHash', 'tokenHash', 'twoFactorSecret']) {
      expect(everything).not.toContain(secret);
    }
    // Audited.
    const audited = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.targetId, user.id), eq(auditLog.action, 'data.exported')));
    expect(audited).toHaveLength(1);
  });

  it('with two-factor on, asks for a current code instead of the password', async () => {
    const secret = new Secret({ size: 20 }).base32;
    const { user, token } = await member();
    // Turned on after signing in (signing in with 2FA on takes a second step this test does not need).
    await ctx.database.db
      .update(users)
      .set({ twoFactorSecret: ctx.app.deps.secrets.sealTotpSecret(secret), twoFactorEnabledAt: ctx.clock.now() })
      .where(eq(users.id, user.id));
    const password = await requestExport(token, { password: DEFAULT_PASSWORD });
    expect(password.statusCode).toBe(400);
    expect(password.json()).toMatchObject({ message: messages.stepUp.codeInvalid, fields: { code: messages.stepUp.codeInvalid } });
    const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: ctx.clock.now().getTime() });
    expect((await requestExport(token, { code })).statusCode).toBe(202);
    await processDataExports({ ...ctx.app.deps, storage: ctx.storage });
  });

  it('makes one export of two requests sent at once', async () => {
    const { user, token } = await member();
    const answers = await Promise.all([requestExport(token), requestExport(token)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([202, 429]);
    await processDataExports({ ...ctx.app.deps, storage: ctx.storage });
    expect(await ctx.database.db.select().from(dataExports).where(eq(dataExports.userId, user.id))).toHaveLength(1);
  });

  it('allows one export a day: a second within 24 hours is 429 with Retry-After, the next day works', async () => {
    const { token } = await member();
    expect((await requestExport(token)).statusCode).toBe(202);
    ctx.clock.advance(3_600_000);
    const again = await requestExport(token);
    expect(again.statusCode).toBe(429);
    expect(again.json()).toMatchObject({ message: messages.privacy.exportOncePerDay });
    expect(Number(again.headers['retry-after'])).toBe(23 * 3600);
    ctx.clock.advance(23 * 3_600_000);
    expect((await requestExport(token)).statusCode).toBe(202);
    await processDataExports({ ...ctx.app.deps, storage: ctx.storage });
    ctx.clock.set(new Date(NOW));
  });

  it('serves a download to its owner only: another member\'s export and an unknown id are 404', async () => {
    const owner = await member();
    const other = await member();
    const { id } = (await requestExport(owner.token)).json<DataExport>();
    await processDataExports({ ...ctx.app.deps, storage: ctx.storage });
    expect((await call('GET', `/users/data-export/${id}/download`, other.token)).statusCode).toBe(404);
    expect((await call('GET', `/users/data-export/${randomId()}/download`, owner.token)).statusCode).toBe(404);
    expect((await call('GET', '/users/data-export/not-an-id/download', owner.token)).statusCode).toBe(404);
    expect((await call('GET', '/users/data-export', other.token)).json()).toEqual([]);
  });

  it('expires after 7 days: the link answers 410, the list drops it, and the job deletes the file', async () => {
    const signedIn = await member();
    const { user } = signedIn;
    let { token } = signedIn;
    const { id } = (await requestExport(token)).json<DataExport>();
    await processDataExports({ ...ctx.app.deps, storage: ctx.storage });
    const [row] = await ctx.database.db.select().from(dataExports).where(eq(dataExports.id, id));
    expect(ctx.storage.files.has(row!.storageKey!)).toBe(true);
    ctx.clock.advance(7 * DAY_MS);
    token = await loginAs(ctx, user.email); // the first session has idled out meanwhile
    expect((await call('GET', `/users/data-export/${id}/download`, token)).statusCode).toBe(410);
    expect((await call('GET', '/users/data-export', token)).json()).toEqual([]);
    expect(await purgeExpiredExports({ ...ctx.app.deps, storage: ctx.storage })).toBeGreaterThanOrEqual(1);
    expect(ctx.storage.files.has(row!.storageKey!)).toBe(false);
    expect((await call('GET', `/users/data-export/${id}/download`, token)).statusCode).toBe(410);
    ctx.clock.set(new Date(NOW));
  });

  it('a pending export left by a restart (committed, never built) is built by the worker', async () => {
    const { user } = await member();
    const [row] = await ctx.database.db
      .insert(dataExports)
      .values({ userId: user.id, createdAt: ctx.clock.now(), nextAttemptAt: ctx.clock.now(), expiresAt: new Date(ctx.clock.now().getTime() + 7 * DAY_MS) })
      .returning();
    expect(await processDataExports({ ...ctx.app.deps, storage: ctx.storage })).toBe(1);
    const [built] = await ctx.database.db.select().from(dataExports).where(eq(dataExports.id, row!.id));
    expect(built).toMatchObject({ status: 'ready' });
    // Built once: a second pass finds nothing.
    expect(await processDataExports({ ...ctx.app.deps, storage: ctx.storage })).toBe(0);
  });
});

describe('closing an account (issue 34)', () => {
  const ctx = useTestApp({ clock: fixedClock(new Date(NOW)) });
  const admin = useAdmin(ctx);
  const { call, member, mailTo } = privacyHarness(ctx);

  const close = (token: string, body: unknown = { password: DEFAULT_PASSWORD, confirm: 'CLOSE' }) => call('POST', '/users/close', token, body);

  it('needs confirm "CLOSE" and the step-up', async () => {
    const { token } = await member();
    for (const body of [{ password: DEFAULT_PASSWORD }, { password: DEFAULT_PASSWORD, confirm: 'close' }, { password: DEFAULT_PASSWORD, confirm: true }]) {
      const response = await close(token, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toMatchObject({ confirm: messages.privacy.confirmRequired });
    }
    const wrong = await close(token, { password: 'not my password', confirm: 'CLOSE' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ message: messages.stepUp.passwordIncorrect });
    expect((await call('GET', '/users/profile', token)).statusCode).toBe(200);
  });

  it('is refused with 409 while the balance is at least the minimum withdrawal', async () => {
    const { user, token } = await member();
    await creditWallet(ctx, user.id, 2500);
    const response = await close(token);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ message: messages.privacy.closeBalance('$25.00') });
  });

  it('is refused with 409 while a withdrawal is pending', async () => {
    const { user, token } = await member();
    await ctx.database.db.insert(transactions).values({
      userId: user.id, type: 'withdrawal', amountCents: 3000, status: 'pending', description: 'Withdrawal', createdAt: ctx.clock.now(), updatedAt: ctx.clock.now(),
    });
    const response = await close(token);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ message: messages.privacy.closePendingWithdrawal });
  });

  it('is refused with 409 while an investment is in a project not yet ended, and allowed once it has ended', async () => {
    const { user, token } = await member();
    const project = await createProject(ctx, admin.token, { endDate: '2027-01-01' });
    await ctx.database.db.insert(transactions).values({
      userId: user.id, type: 'investment', amountCents: 5000, status: 'completed', description: 'Investment', projectId: project._id, createdAt: ctx.clock.now(), updatedAt: ctx.clock.now(),
    });
    const response = await close(token);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ message: messages.privacy.closeOpenInvestment });
  });

  it('is refused with 409 while a pack payment is being settled', async () => {
    const { token } = await startDeposit(ctx);
    const response = await close(token);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ message: messages.privacy.closePaymentPending });
  });

  it('closes: sessions end, sign-in fails, the address registers afresh, one mail at the old address, data erased, audited', async () => {
    const { user, token } = await member({ phone: '+1 212 555 0100' });
    await creditWallet(ctx, user.id, 2499); // below the minimum: given up
    await insertMembership(ctx, user.id, 'gold', '2026-01-05T10:00:00Z');
    await notify(ctx.database.db, ctx.app.deps, user.id, 'kyc.approved', undefined, `kyc:${user.id}`);
    const otherSession = await loginAs(ctx, user.email);

    const response = await close(token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: messages.privacy.closed });

    for (const t of [token, otherSession]) expect((await call('GET', '/users/profile', t)).statusCode).toBe(401);
    const login = await call('POST', '/users/login', undefined, { email: user.email, password: DEFAULT_PASSWORD });
    expect(login.statusCode).toBe(400);
    const tombstone = `closed-${user.id}@invalid`;
    expect((await call('POST', '/users/login', undefined, { email: tombstone, password: DEFAULT_PASSWORD })).statusCode).toBe(400);

    const mail = await mailTo(user.email);
    expect(mail.map((m) => m.subject)).toEqual([expect.stringContaining('Your account is closed')]);
    expect(mail[0]!.headers).toBeUndefined();

    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ email: tombstone, phone: '', twoFactorSecret: null, closedAt: new Date(NOW) });
    expect(row!.firstName).not.toBe(user.firstName === 'Closed' ? '' : user.firstName);
    expect(await ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(await ctx.database.db.select().from(notifications).where(eq(notifications.userId, user.id))).toEqual([]);
    const [audit] = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.targetId, user.id), eq(auditLog.action, 'account.closed')));
    expect(audit).toMatchObject({ actorId: user.id });
    const [membership] = await rows<{ status: string }>(ctx, sqlStatusOf(user.id));
    expect(membership!.status).toBe('ended');

    const again = await call('POST', '/users/register', undefined, { firstName: 'New', lastName: 'Start', email: user.email, password: 'a brand new passphrase 42' });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('shows the closed account to admins as closed with its tombstone, and refuses every admin change (409)', async () => {
    const { user, token } = await member();
    expect((await close(token)).statusCode).toBe(200);
    const detail = await call('GET', `/users/${user.id}`, admin.token);
    expect(detail.statusCode).toBe(200);
    expect(detail.json<PublicUser>()).toMatchObject({ email: `closed-${user.id}@invalid`, closedAt: NOW });
    const list = await call('GET', `/admin/users?search=${encodeURIComponent(`closed-${user.id}`)}`, admin.token);
    expect(list.json<PublicUser[]>()).toEqual([expect.objectContaining({ _id: user.id, closedAt: NOW })]);
    expect((await call('PATCH', `/users/${user.id}`, admin.token, { firstName: 'Reopened' })).statusCode).toBe(409);
    expect((await call('DELETE', `/users/${user.id}`, admin.token)).statusCode).toBe(409);
  });

  it('keeps the KYC record and documents for KYC_RETENTION_DAYS after closing, then the job deletes them (kyc.purged)', async () => {
    const { user, token } = await member({ kycStatus: 'approved', kycVerified: true });
    const key = await ctx.storage.put('kyc', Buffer.from('passport'));
    const [doc] = await ctx.database.db
      .insert(kycDocuments)
      .values({ userId: user.id, documentType: 'idFront', storageKey: key, contentType: 'image/png', sizeBytes: 8, createdAt: ctx.clock.now() })
      .returning();
    await ctx.database.db.insert(kycProfiles).values({
      userId: user.id, firstName: 'T', lastName: 'M', dateOfBirth: '1990-01-01', nationality: 'US', address: 'a', city: 'c', postalCode: 'p', country: 'US',
      idType: 'passport', idNumber: 'n', documentIds: [doc!.id], submittedAt: ctx.clock.now(),
    });
    expect((await close(token)).statusCode).toBe(200);
    const deps = { ...ctx.app.deps, storage: ctx.storage };

    ctx.clock.advance(1824 * DAY_MS);
    await purgeExpiredKyc(deps);
    expect(await ctx.database.db.select().from(kycProfiles).where(eq(kycProfiles.userId, user.id))).toHaveLength(1);
    expect(ctx.storage.files.has(key)).toBe(true);

    ctx.clock.advance(2 * DAY_MS);
    expect(await purgeExpiredKyc(deps)).toBeGreaterThanOrEqual(1);
    expect(await ctx.database.db.select().from(kycProfiles).where(eq(kycProfiles.userId, user.id))).toEqual([]);
    expect(await ctx.database.db.select().from(kycDocuments).where(eq(kycDocuments.userId, user.id))).toEqual([]);
    expect(ctx.storage.files.has(key)).toBe(false);
    const purged = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.targetId, user.id), eq(auditLog.action, 'kyc.purged')));
    expect(purged).toHaveLength(1);
    ctx.clock.set(new Date(NOW));
  });

  it('is possible from the command line for a request by mail (same rules; tested through the service the CLI calls)', async () => {
    const { runPrivacyCommand } = await import('../../cli/privacy-commands');
    const { user } = await member();
    await creditWallet(ctx, user.id, 5000);
    const deps = { ...ctx.app.deps, storage: ctx.storage };
    const refused = await runPrivacyCommand(deps, { action: 'close', email: user.email });
    expect(refused).toMatchObject({ ok: false });
    expect(refused.message).toContain(messages.privacy.closeBalance('$50.00'));
    const other = await member();
    expect(await runPrivacyCommand(deps, { action: 'close', email: other.user.email })).toMatchObject({ ok: true });
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, other.user.id));
    expect(row!.email).toBe(`closed-${other.user.id}@invalid`);
    expect(await runPrivacyCommand(deps, { action: 'close', email: uniqueEmail('nobody') })).toMatchObject({ ok: false });
  });

  it('exports from the command line to a file (--export, --out), audited data.exported with no actor', async () => {
    const { runPrivacyCommand } = await import('../../cli/privacy-commands');
    const { mkdtemp, readFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = await mkdtemp(path.join(tmpdir(), 'tf-export-'));
    try {
      const { user } = await member();
      const out = path.join(dir, 'member.zip');
      const result = await runPrivacyCommand({ ...ctx.app.deps, storage: ctx.storage }, { action: 'export', email: user.email, out });
      expect(result).toMatchObject({ ok: true });
      expect(result.message).toContain(out);
      const files = unzipSync(new Uint8Array(await readFile(out)));
      expect(JSON.parse(strFromU8(files['profile.json']!)).user).toMatchObject({ _id: user.id, email: user.email });
      const audited = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.targetId, user.id), eq(auditLog.action, 'data.exported')));
      expect(audited).toEqual([expect.objectContaining({ actorId: null })]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('opt-in mail: dividends paid and new projects (issue 34)', () => {
  const ctx = useTestApp({ clock: fixedClock(new Date(NOW)) });
  const admin = useAdmin(ctx);
  const { call, member, mailTo } = privacyHarness(ctx);

  it('mails an opted-in member once per payout run that paid them, however many days it caught up; others get none', async () => {
    const opted = await member();
    const silent = await member();
    await call('PATCH', '/users/notification-preferences', opted.token, { dividends: true });
    // Activated on Monday 2 March: Tuesday 3 … Tuesday 10 March are due (6 business days) when the run comes.
    await insertMembership(ctx, opted.user.id, 'gold', '2026-03-02T09:00:00Z');
    await insertMembership(ctx, silent.user.id, 'gold', '2026-03-02T09:00:00Z');
    ctx.clock.advance(60_000); // the run comes after the member turned the kind on
    const run = await call('POST', '/admin/payouts/run', admin.token);
    expect(run.statusCode, run.body).toBe(200);
    const mail = await ctx.deliverMail();
    const toOpted = mail.filter((m) => m.to === opted.user.email);
    expect(toOpted).toHaveLength(1);
    expect(toOpted[0]!.subject).toContain('60.00');
    expect(toOpted[0]!.text).toContain('6 business days');
    expect(toOpted[0]!.text).toContain('balance is now 60.00 USD');
    expect(toOpted[0]!.headers?.['List-Unsubscribe']).toMatch(/unsubscribe\?token=/);
    expect(mail.filter((m) => m.to === silent.user.email)).toEqual([]);

    // Running again pays nothing and mails nothing; the next day's run mails that day.
    await call('POST', '/admin/payouts/run', admin.token);
    expect(await mailTo(opted.user.email)).toEqual([]);
    ctx.clock.advance(DAY_MS);
    const adminToken = await loginAs(ctx, admin.email); // an admin session idles out within the day
    await call('POST', '/admin/payouts/run', adminToken);
    const next = await mailTo(opted.user.email);
    expect(next).toHaveLength(1);
    expect(next[0]!.text).toContain('daily dividend of 10.00 USD');
    ctx.clock.set(new Date(NOW));
  });

  it('mails members who opted in to new projects once when an admin creates an available project, not a reserved one', async () => {
    const opted = await member();
    const silent = await member();
    await call('PATCH', '/users/notification-preferences', opted.token, { projects: true });
    await createProject(ctx, admin.token, { title: 'Harbour Lofts', status: 'available' });
    await createProject(ctx, admin.token, { title: 'Quiet Reserve', status: 'reserved' });
    const mail = await ctx.deliverMail();
    expect(mail.filter((m) => m.to === opted.user.email).map((m) => m.subject)).toEqual([expect.stringContaining('Harbour Lofts')]);
    expect(mail.filter((m) => m.to === silent.user.email)).toEqual([]);
  });
});

const sqlStatusOf = (userId: string) => sql`select status from memberships where user_id = ${userId}`;

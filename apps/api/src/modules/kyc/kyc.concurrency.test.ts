import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { multipart, png } from '../../../test/files';
import { bearer, createUser, loginAs, rows, uniqueEmail, useTestApp } from '../../../test/test-app';
import { kycBody } from '../../../test/kyc-fixtures';

/** Exactly one of ten racing `responses` succeeded and the nine others were refused with a 409 `message`; answers the winner's index. */
function expectOneWinner(responses: LightMyRequestResponse[], message: string) {
  const statuses = responses.map((r) => r.statusCode);
  expect(statuses.filter((s) => s === 200), statuses.join(',')).toHaveLength(1);
  expect(statuses.filter((s) => s === 409), statuses.join(',')).toHaveLength(9);
  for (const response of responses.filter((r) => r.statusCode === 409)) {
    expect(response.json()).toEqual({ message, code: 'CONFLICT' });
  }
  return statuses.indexOf(200);
}

/**
 * Decisions and submissions that arrive at the same moment. On PostgreSQL the requests really run in parallel on
 * separate connections; the row lock in the service must let exactly one through.
 */
describe('KYC under concurrency', () => {
  const ctx = useTestApp();
  let admins: { id: string; token: string }[];

  beforeAll(async () => {
    admins = [];
    for (const name of ['first', 'second']) {
      const admin = await createUser(ctx, { role: 'admin', email: uniqueEmail(`admin-${name}`) });
      admins.push({ id: admin.id, token: await loginAs(ctx, admin.email) });
    }
  });

  /** A member with what a passport submission needs uploaded: an ID front and a proof of address. */
  async function memberWithDocument() {
    const user = await createUser(ctx);
    const token = await loginAs(ctx, user.email);
    const documents: string[] = [];
    for (const documentType of ['idFront', 'proofOfAddress']) {
      const body = multipart([
        { name: 'documentType', value: documentType },
        { name: 'file', filename: 'id.png', contentType: 'image/png', data: png({ seed: 9 }) },
      ]);
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/kyc/upload-document',
        payload: body.payload,
        headers: { 'content-type': body.contentType, ...bearer(token) },
      });
      expect(response.statusCode, response.body).toBe(201);
      documents.push(response.json<{ fileUrl: string }>().fileUrl);
    }
    return { user, token, documents };
  }

  const submit = (token: string, body: object) => ctx.app.inject({ method: 'POST', url: '/api/kyc/submit', payload: body, headers: bearer(token) });

  const auditEntries = (userId: string) =>
    rows<{ actor_id: string; action: string; after: { kycStatus: string; rejectionReason?: string } }>(
      ctx,
      sql`select actor_id, action, after from audit_log where target_type = 'user' and target_id = ${userId}`,
    );

  it.each([1, 2, 3])('10 simultaneous decisions by two admins on one pending KYC: exactly one wins (round %i)', async (round) => {
    const member = await memberWithDocument();
    expect((await submit(member.token, kycBody(member.documents))).statusCode).toBe(200);
    await ctx.deliverMail();

    const attempts = Array.from({ length: 10 }, (_, i) => ({
      admin: admins[i % 2]!,
      body: (i + round) % 3 === 0 ? { verified: true } : { verified: false, rejectionReason: `Reason ${i} from attempt` },
    }));
    const responses = await Promise.all(
      attempts.map(({ admin, body }) =>
        ctx.app.inject({ method: 'POST', url: `/api/admin/verify/${member.user.id}`, payload: body, headers: bearer(admin.token) }),
      ),
    );

    const winnerIndex = expectOneWinner(responses, messages.kyc.notPending);
    const winner = attempts[winnerIndex]!;
    const expectedStatus = winner.body.verified ? 'approved' : 'rejected';
    expect(responses[winnerIndex]!.json()).toMatchObject({ kycStatus: expectedStatus, kycVerified: winner.body.verified });

    const audit = await auditEntries(member.user.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_id: winner.admin.id,
      action: winner.body.verified ? 'kyc.approved' : 'kyc.rejected',
      after: { kycStatus: expectedStatus },
    });

    const [profile] = await rows<{ reviewed_by: string; rejection_reason: string | null }>(
      ctx,
      sql`select reviewed_by, rejection_reason from kyc_profiles where user_id = ${member.user.id}`,
    );
    expect(profile).toEqual({
      reviewed_by: winner.admin.id,
      rejection_reason: winner.body.verified ? null : (winner.body as { rejectionReason: string }).rejectionReason,
    });

    const mail = (await ctx.deliverMail()).filter((m) => m.to === member.user.email);
    expect(mail).toHaveLength(1);
    if (!winner.body.verified) expect(mail[0]!.text).toContain((winner.body as { rejectionReason: string }).rejectionReason);

    const seen = await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(member.token) });
    expect(seen.json()).toMatchObject({ kycStatus: expectedStatus, kycVerified: winner.body.verified });
  });

  it.each(['not_started', 'rejected'] as const)('10 simultaneous submits by one member (from %s): exactly one is taken', async (from) => {
    const member = await memberWithDocument();
    if (from === 'rejected') {
      expect((await submit(member.token, kycBody(member.documents, { idNumber: 'FIRST' }))).statusCode).toBe(200);
      const rejected = await ctx.app.inject({
        method: 'POST',
        url: `/api/admin/verify/${member.user.id}`,
        payload: { verified: false, rejectionReason: 'Unreadable' },
        headers: bearer(admins[0]!.token),
      });
      expect(rejected.statusCode).toBe(200);
    }

    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => submit(member.token, kycBody(member.documents, { idNumber: `ID-${i}` }))),
    );
    const winner = expectOneWinner(responses, messages.kyc.cannotSubmit);
    expect(responses[winner]!.json()).toMatchObject({ kycStatus: 'pending', kyc: { idNumber: `ID-${winner}`, kycRejectionReason: null } });
    const profiles = await rows<{ id_number: string; rejection_reason: string | null }>(
      ctx,
      sql`select id_number, rejection_reason from kyc_profiles where user_id = ${member.user.id}`,
    );
    expect(profiles).toEqual([{ id_number: `ID-${winner}`, rejection_reason: null }]);
    const seen = await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(member.token) });
    expect(seen.json()).toMatchObject({ kycStatus: 'pending', kyc: { idNumber: `ID-${winner}` } });
  });
});

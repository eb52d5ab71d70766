import { statSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { checkProjectLedger } from './invest.service';
import { createProjectBody, messages, PAYMENT_SCHEDULES, type Project } from '@terrafund/contracts';
import { users } from '../../db/schema';
import { bearer, createTestApp, createUser, loginAs, rows, uniqueEmail, type TestContext } from '../../../test/test-app';
import { SAMPLE_PICTURES_DIR, SAMPLE_PROJECTS, SYSTEM_OWNER_EMAIL, seedSampleProjects, type SampleProject } from './seed';

describe('the sample projects', () => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  const seed = (c: TestContext, samples?: SampleProject[]) =>
    seedSampleProjects({ db: c.database.db, clock: c.clock, logger: pino({ level: 'silent' }), config: c.app.deps.config, storage: c.storage }, samples);
  const listAs = async (c: TestContext, token: string) =>
    (await c.app.inject({ method: 'GET', url: '/api/projects', headers: bearer(token) })).json<Project[]>();
  /** A project as the admin form would send it back: what the seed wrote must pass the form's rules. */
  const asForm = ({ title, description, location, type, status, images, target, roi, term, minInvestment, startDate, endDate, details }: Project) => ({
    title, description, location, type, status, images, target, roi, term, minInvestment, startDate, endDate, details,
  });

  it('follow the spec: six, ROI 6.8–9.1 %, 36–72 months, minimums 5,000–15,000, every schedule, mostly available', () => {
    expect(SAMPLE_PROJECTS).toHaveLength(6);
    for (const { project, pictures, slug } of SAMPLE_PROJECTS) {
      expect(project.roi).toBeGreaterThanOrEqual(6.8);
      expect(project.roi).toBeLessThanOrEqual(9.1);
      expect(project.term).toBeGreaterThanOrEqual(36);
      expect(project.term).toBeLessThanOrEqual(72);
      expect(project.minInvestment).toBeGreaterThanOrEqual(5_000);
      expect(project.minInvestment).toBeLessThanOrEqual(15_000);
      expect(pictures).toBeGreaterThanOrEqual(2);
      for (let n = 1; n <= pictures; n += 1) expect(statSync(path.join(SAMPLE_PICTURES_DIR, `${slug}-${n}.jpg`)).size).toBeGreaterThan(10_000);
    }
    expect(new Set(SAMPLE_PROJECTS.map((s) => s.project.details.paymentSchedule))).toEqual(new Set(PAYMENT_SCHEDULES));
    expect(new Set(SAMPLE_PROJECTS.map((s) => s.project.type))).toEqual(new Set(['residential', 'commercial', 'land']));
    const available = SAMPLE_PROJECTS.filter((s) => s.project.status === 'available').length;
    expect(available).toBeGreaterThan(SAMPLE_PROJECTS.length / 2);
  });

  it('are seeded once, owned by the first admin, valid for the admin form, with pictures and a fact sheet served', async () => {
    ctx = await createTestApp();
    const admin = await createUser(ctx, { role: 'admin', email: uniqueEmail('admin') });
    ctx.clock.advance(1000);
    await createUser(ctx, { role: 'admin', email: uniqueEmail('later-admin') });

    expect(await seed(ctx)).toEqual({ seeded: true });
    expect(await seed(ctx)).toEqual({ seeded: false });
    const token = await loginAs(ctx, admin.email);
    const seeded = await listAs(ctx, token);
    expect(seeded.map((p) => p.title)).toEqual(SAMPLE_PROJECTS.map((s) => s.project.title));

    for (const project of seeded) {
      expect(project.owner._id).toBe(admin.id);
      // Sold is fully funded, Reserved well on its way (never "0% funded"), the available ones start at 0.
      if (project.status === 'sold') expect(project.funded).toBe(project.target);
      else if (project.status === 'reserved') expect(project.funded / project.target).toBeGreaterThanOrEqual(0.5);
      else expect(project.funded).toBe(0);
      expect(project.funded).toBeLessThanOrEqual(project.target);
      expect(createProjectBody.safeParse(asForm(project)).error).toBeUndefined();
      const sample = SAMPLE_PROJECTS.find((s) => s.project.title === project.title)!;
      expect(project.images).toHaveLength(sample.pictures);

      const card = await ctx.app.inject({ method: 'GET', url: `${project.images[0]}/card` });
      expect(card.statusCode).toBe(200);
      expect(card.headers['content-type']).toBe('image/webp');
      expect(await sharp(card.rawPayload).metadata()).toMatchObject({ width: 640, height: 400 });

      const [sheet] = project.details.documents;
      const pdf = await ctx.app.inject({ method: 'GET', url: sheet!.url });
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf.rawPayload.toString('latin1')).toContain(`(${project.title.replace(/[()\\]/g, '\\$&')})`);
    }

    expect(seeded.filter((p) => p.status === 'sold')).toHaveLength(1);
    expect(seeded.filter((p) => p.status === 'reserved')).toHaveLength(1);
    // Funded is what was raised before listing plus real investments: the books still check.
    expect(await checkProjectLedger(ctx.database.db)).toEqual([]);

    // Deleting a sample for good: a later start does not bring it back.
    const deleted = await ctx.app.inject({ method: 'DELETE', url: `/api/projects/${seeded[0]!._id}`, headers: bearer(token) });
    expect(deleted.statusCode).toBe(204);
    expect(await seed(ctx)).toEqual({ seeded: false });
    expect(await listAs(ctx, token)).toHaveLength(5);
  });

  it('without an admin, belong to a system account that cannot sign in and is no admin', async () => {
    ctx = await createTestApp();
    const one: SampleProject[] = [SAMPLE_PROJECTS[0]!];
    expect(await seed(ctx, one)).toEqual({ seeded: true });
    const [owner] = await ctx.database.db.select().from(users).where(eq(users.email, SYSTEM_OWNER_EMAIL));
    expect(owner).toMatchObject({ role: 'user', emailVerifiedAt: null, deletedAt: null });
    const [project] = await rows<{ owner_id: string }>(ctx, sql`select owner_id from projects`);
    expect(project!.owner_id).toBe(owner!.id);
    const login = await ctx.app.inject({ method: 'POST', url: '/api/users/login', payload: { email: SYSTEM_OWNER_EMAIL, password: 'password1234' } });
    expect(login.statusCode).toBe(400);
    expect(login.json().message).toBe(messages.auth.invalidCredentials);
  });

  it('leave nothing behind when seeding fails, and are seeded by the next start', async () => {
    ctx = await createTestApp();
    const errors: unknown[] = [];
    const logger = { info: () => {}, error: (fields: unknown) => errors.push(fields) };
    const deps = { db: ctx.database.db, clock: ctx.clock, logger, config: ctx.app.deps.config, storage: ctx.storage };
    const [first, second] = SAMPLE_PROJECTS as [SampleProject, SampleProject];
    const failures: SampleProject[][] = [
      // The second sample's pictures are missing from the deployment.
      [first, { ...second, slug: 'no-such-project' }],
      // The second sample breaks a form rule: found inside the transaction, after the first one's files were stored.
      [first, { ...second, project: { ...second.project, roi: 8.55 } }],
    ];
    for (const broken of failures) {
      expect(await seedSampleProjects(deps, broken)).toEqual({ seeded: false });
      expect(await rows(ctx, sql`select * from seed_runs`)).toEqual([]);
      expect(await rows(ctx, sql`select * from projects`)).toEqual([]);
      expect(await rows(ctx, sql`select * from project_assets`)).toEqual([]);
      expect(ctx.storage.files.size).toBe(0);
    }
    expect(errors).toHaveLength(2);
    expect(await seedSampleProjects(deps, [second])).toEqual({ seeded: true });
  });

  it('are seeded once when two servers start at the same moment, leaving only one set of files', async () => {
    ctx = await createTestApp();
    const one: SampleProject[] = [SAMPLE_PROJECTS[3]!];
    const results = await Promise.all([seed(ctx, one), seed(ctx, one), seed(ctx, one)]);
    expect(results.filter((r) => r.seeded)).toHaveLength(1);
    const [{ count }] = (await rows<{ count: number }>(ctx, sql`select count(*)::int as count from projects`)) as [{ count: number }];
    expect(count).toBe(1);
    // Two pictures in three sizes each, and the fact sheet.
    expect(ctx.storage.files.size).toBe(SAMPLE_PROJECTS[3]!.pictures * 3 + 1);
    const [{ assets }] = (await rows<{ assets: number }>(ctx, sql`select count(*)::int as assets from project_assets`)) as [{ assets: number }];
    expect(assets).toBe(SAMPLE_PROJECTS[3]!.pictures + 1);
  });
});

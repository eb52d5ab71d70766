import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { createProjectBody, projectAssetUrl, usdToCents, type CreateProjectBody } from '@terrafund/contracts';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Database, Executor } from '../../db/client';
import { projects, seedRuns, users } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { hashPassword } from '../../lib/password';
import { textPagePdf, wrapText, type PdfLine } from '../../lib/pdf';
import { localDiskStorage, type FileStorage } from '../../lib/storage';
import { prepareAsset, removeFiles, storeAsset, type PreparedAsset } from './assets.service';
import { projectColumns } from './projects.service';

const SAMPLE_SEED_NAME = 'sample-projects';
export const SAMPLE_PICTURES_DIR = path.resolve(import.meta.dirname, '../../../assets/sample-projects');
/** Owns the sample projects when the database has no admin yet (see docs/decisions.md, Projects). */
export const SYSTEM_OWNER_EMAIL = 'projects@terrafund.invalid';

/** A sample project: the admin form's fields, its pictures (drawn by scripts/make-sample-pictures.mjs) and a fact sheet. */
export type SampleProject = {
  slug: string;
  pictures: number;
  project: Omit<CreateProjectBody, 'images'>;
  /** USD raised before the project was listed here: a sold sample is fully funded, a reserved one mostly. */
  fundedBefore?: number;
};

/**
 * The six sample projects of the spec (section 3 "Sample projects" and section 9: ROI 6.8–9.1 %, terms 36–72
 * months, minimums 5,000–15,000, monthly/quarterly/annual schedules), in the one Project shape, kept as data in
 * `assets/sample-projects/projects.json` beside their pictures. The available ones start unfunded (their funded
 * amount is the sum of real investments); the sold one is fully funded and the reserved one 90 % funded, raised
 * before they were listed (`fundedBefore`), so neither reads "0% funded". Listed newest first. Each is checked by
 * the admin form's own schema when it is read, so a broken sample fails at start-up, not on a member's screen.
 */
export const SAMPLE_PROJECTS: SampleProject[] = readSampleProjects(path.join(SAMPLE_PICTURES_DIR, 'projects.json'));

function readSampleProjects(file: string): SampleProject[] {
  const samples = z
    .array(
      z.object({
        slug: z.string().regex(/^[a-z0-9-]+$/),
        pictures: z.number().int().min(1),
        project: z.record(z.string(), z.unknown()),
        fundedBefore: z.number().nonnegative().optional(),
      }),
    )
    .parse(JSON.parse(readFileSync(file, 'utf8')));
  return samples.map((sample) => {
    // Parsed for its rules; the sample keeps the form's input shape, which createProjectBody reads again when seeding.
    createProjectBody.parse({ ...sample.project, images: [] });
    return sample as SampleProject;
  });
}

/** A one-page PDF fact sheet of a sample project, so that its Documents tab has a real document to open. */
function factSheetPdf(project: SampleProject['project']): Buffer {
  const money = (usd: number) => `$${usd.toLocaleString('en-US')}`;
  const d = project.details;
  return textPagePdf([
    [20, project.title],
    [12, `${project.location} - ${project.type} - ${d.propertyType}`],
    [12, ''],
    ...wrapText(project.description, 88).map((l): PdfLine => [11, l]),
    [11, ''],
    [13, 'Investment'],
    [11, `Target: ${money(project.target)}    Minimum investment: ${money(project.minInvestment)}`],
    [11, `Expected ROI: ${project.roi}% a year    Term: ${project.term} months    Payments: ${d.paymentSchedule}`],
    [11, `Start: ${project.startDate ?? 'to be announced'}    End: ${project.endDate ?? 'to be announced'}`],
    [11, ''],
    [13, 'Property'],
    [11, `Size: ${d.size}    Units: ${d.units}    Year built: ${d.yearBuilt}    Occupancy: ${d.occupancyRate}%`],
    ...(d.features ?? []).map((f): PdfLine => [11, `- ${f}`]),
    [11, ''],
    [9, 'Sample project published by Terrafund. Figures are projections, not guarantees.'],
  ]);
}

/**
 * The owner of the sample projects: the first admin, or else a system account nobody can sign in to. That
 * account has the role `user`, not admin: an admin account is a standing risk however unguessable its
 * password, and owning a project needs no rights. Its address is in the `.invalid` domain (RFC 2606), so no
 * mail (a verification code, a reset link) can ever reach anyone, and its password is random and discarded.
 */
async function sampleOwner(tx: Executor, clock: Clock): Promise<string> {
  const [admin] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), isNull(users.deletedAt)))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(1);
  if (admin) return admin.id;
  const now = clock.now();
  await tx
    .insert(users)
    .values({
      email: SYSTEM_OWNER_EMAIL,
      firstName: 'Terrafund',
      lastName: 'Projects',
      passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
      role: 'user',
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: users.email });
  const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.email, SYSTEM_OWNER_EMAIL));
  return owner!.id;
}

type SeedDeps = {
  db: Database;
  clock: Clock;
  logger: Pick<Logger, 'info' | 'error'>;
  config: Pick<Config, 'dataDir'>;
  /** Where the pictures go; by default the server's storage under DATA_DIR, as app.ts builds it. */
  storage?: FileStorage;
};

/**
 * Seeds the sample projects once per database, at server start. Their pictures go through the upload pipeline
 * (decoded, resized, re-encoded, stored, recorded), so they are served like any upload. The `seed_runs` row is
 * inserted first, in the transaction that writes the projects: a second server starting at the same moment
 * waits on that row and then finds it, so the projects exist once; deleting them later does not bring them back.
 * A failure (the pictures missing from a deployment, say) is logged and leaves nothing behind: sample data is
 * not worth refusing to start for, and the next start tries again.
 */
export async function seedSampleProjects(deps: SeedDeps, samples: SampleProject[] = SAMPLE_PROJECTS): Promise<{ seeded: boolean }> {
  try {
    return await seedOnce(deps, samples);
  } catch (error) {
    deps.logger.error({ err: error }, 'sample projects not seeded; the next start tries again');
    return { seeded: false };
  }
}

async function seedOnce(deps: SeedDeps, samples: SampleProject[]): Promise<{ seeded: boolean }> {
  const [done] = await deps.db.select().from(seedRuns).where(eq(seedRuns.name, SAMPLE_SEED_NAME));
  if (done) return { seeded: false };
  const storage = deps.storage ?? localDiskStorage(path.join(deps.config.dataDir, 'uploads'));

  // The CPU-heavy part (decoding and encoding the pictures) happens before the transaction opens.
  const prepared: { sample: SampleProject; body: CreateProjectBody; pictures: PreparedAsset[]; factSheet: PreparedAsset }[] = [];
  for (const sample of samples) {
    const pictures: PreparedAsset[] = [];
    for (let n = 1; n <= sample.pictures; n += 1) {
      const name = `${sample.slug}-${n}.jpg`;
      pictures.push(await prepareAsset('image', await readFile(path.join(SAMPLE_PICTURES_DIR, name)), name));
    }
    const factSheet = await prepareAsset('document', factSheetPdf(sample.project), `${sample.slug}-fact-sheet.pdf`);
    prepared.push({ sample, body: sample.project, pictures, factSheet });
  }

  const stored: string[] = [];
  try {
    const seeded = await deps.db.transaction(async (tx) => {
      const [claimed] = await tx
        .insert(seedRuns)
        .values({ name: SAMPLE_SEED_NAME, ranAt: deps.clock.now() })
        .onConflictDoNothing()
        .returning();
      if (!claimed) return false;
      const ownerId = await sampleOwner(tx, deps.clock);
      const now = deps.clock.now().getTime();
      for (const [index, { sample, body, pictures, factSheet }] of prepared.entries()) {
        const images: string[] = [];
        for (const picture of pictures) images.push(projectAssetUrl((await storeAsset(tx, { ...deps, storage }, picture, ownerId, stored)).id));
        const sheet = await storeAsset(tx, { ...deps, storage }, factSheet, ownerId, stored);
        // The same rules as the admin form: a sample that breaks one fails here, not on a member's screen.
        const project = createProjectBody.parse({
          ...body,
          images,
          details: { ...body.details, documents: [{ name: 'Investment fact sheet', url: projectAssetUrl(sheet.id) }] },
        });
        // A second apart, so "newest first" shows them in the order of the list.
        const createdAt = new Date(now - index * 1000);
        const fundedBefore = usdToCents(sample.fundedBefore ?? 0);
        await tx
          .insert(projects)
          .values({ ...projectColumns(project), ownerId, fundedCents: fundedBefore, fundedBeforeCents: fundedBefore, createdAt, updatedAt: createdAt });
      }
      return true;
    });
    if (seeded) deps.logger.info({ projects: samples.length }, 'sample projects seeded');
    return { seeded };
  } catch (error) {
    await removeFiles(storage, stored);
    throw error;
  }
}

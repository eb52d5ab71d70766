import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { createProjectBody, projectAssetUrl, usdToCents, type CreateProjectBody } from '@terrafund/contracts';
import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Database, Executor } from '../../db/client';
import { projects, seedRuns, users } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { hashPassword } from '../../lib/password';
import { localDiskStorage, type FileStorage } from '../../lib/storage';
import { prepareAsset, removeFiles, storeAsset, type PreparedAsset } from './assets.service';
import { projectColumns } from './projects.service';
import { pdfFile } from '../../lib/pdf';

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
 * months, minimums 5,000–15,000, monthly/quarterly/annual schedules), in the one Project shape. The available
 * ones start unfunded (their funded amount is the sum of real investments); the sold one is fully funded and the
 * reserved one 90 % funded, raised before they were listed (`fundedBefore`), so neither reads "0% funded".
 * Listed newest first.
 */
export const SAMPLE_PROJECTS: SampleProject[] = [
  {
    slug: 'cedar-grove-townhomes',
    pictures: 3,
    project: {
      title: 'Cedar Grove Townhomes',
      description:
        'Twenty-four family townhomes on a quiet tree-lined lane, ten minutes from the Domain tech district. Completed in 2019 and fully leased since, with long-standing tenants and a waiting list. The investment funds a refinance and energy upgrades (heat pumps and rooftop solar) that lower running costs and support rent growth.',
      location: 'Austin, Texas',
      type: 'residential',
      status: 'available',
      target: 2_400_000,
      roi: 7.4,
      term: 48,
      minInvestment: 5_000,
      startDate: '2026-02-01',
      endDate: '2030-02-01',
      details: {
        features: ['Three-bedroom units with private gardens', 'Rooftop solar on every roof', 'Two-car garages', 'Walking distance to two schools'],
        propertyType: 'Townhouse community',
        size: '38,400 sq ft',
        units: 24,
        yearBuilt: 2019,
        occupancyRate: 96,
        paymentSchedule: 'monthly',
        documents: [],
      },
    },
  },
  {
    slug: 'riverside-commerce-center',
    pictures: 3,
    project: {
      title: 'Riverside Commerce Center',
      description:
        'A Class A office campus of three glass towers on the Catawba riverfront, anchored by a regional bank and an engineering firm on long leases. The capital completes the lobby and plaza renovation and a fitness centre, which the anchor tenants asked for when renewing.',
      location: 'Charlotte, North Carolina',
      type: 'commercial',
      status: 'available',
      target: 6_200_000,
      roi: 8.8,
      term: 60,
      minInvestment: 15_000,
      startDate: '2026-03-01',
      endDate: '2031-03-01',
      details: {
        features: ['LEED Gold certified', 'Weighted average lease term of 7.2 years', 'Riverfront plaza and café', '450-space parking structure'],
        propertyType: 'Class A office',
        size: '96,000 sq ft',
        units: 12,
        yearBuilt: 2012,
        occupancyRate: 91,
        paymentSchedule: 'quarterly',
        documents: [],
      },
    },
  },
  {
    slug: 'willow-creek-ranch',
    pictures: 3,
    project: {
      title: 'Willow Creek Ranch',
      description:
        'One hundred and twenty acres of pasture along Willow Creek with views of the Cascades, surveyed into thirty-two homesites. Zoning is approved; the investment pays for roads, water and power to each lot before the lots are sold to local builders.',
      location: 'Bend, Oregon',
      type: 'land',
      status: 'available',
      target: 3_100_000,
      roi: 7.9,
      term: 54,
      minInvestment: 7_500,
      startDate: '2026-04-01',
      endDate: '2030-10-01',
      details: {
        features: ['Residential zoning approved', '32 surveyed homesites', 'Year-round creek frontage', '15 minutes from downtown Bend'],
        propertyType: 'Entitled residential land',
        size: '120 acres',
        units: 32,
        yearBuilt: 2024,
        occupancyRate: 0,
        paymentSchedule: 'annually',
        documents: [],
      },
    },
  },
  {
    slug: 'harbor-point-apartments',
    pictures: 2,
    project: {
      title: 'Harbor Point Apartments',
      description:
        'Sixty-four apartments in three mid-rise buildings on the Hillsborough Bay waterfront, with a marina and a waterside promenade. The investment renovates kitchens and balconies in two buildings as leases turn over, bringing rents in line with newer buildings nearby.',
      location: 'Tampa, Florida',
      type: 'residential',
      status: 'available',
      target: 4_800_000,
      roi: 8.2,
      term: 60,
      minInvestment: 10_000,
      startDate: '2026-01-15',
      endDate: '2031-01-15',
      details: {
        features: ['Private balconies with bay views', 'Resident marina with 20 slips', 'Storm-rated windows throughout', 'On-site management office'],
        propertyType: 'Mid-rise apartments',
        size: '71,500 sq ft',
        units: 64,
        yearBuilt: 2016,
        occupancyRate: 94,
        paymentSchedule: 'quarterly',
        documents: [],
      },
    },
  },
  {
    slug: 'summit-logistics-park',
    pictures: 2,
    fundedBefore: 7_650_000,
    project: {
      title: 'Summit Logistics Park',
      description:
        'Two modern distribution warehouses on the Interstate 80 corridor east of Reno, a day’s drive from most of the western United States. One building is leased to a national parcel carrier; the raise completes the second building’s loading docks for a tenant that has signed a letter of intent.',
      location: 'Reno, Nevada',
      type: 'commercial',
      status: 'reserved',
      target: 8_500_000,
      roi: 9.1,
      term: 72,
      minInvestment: 15_000,
      startDate: '2026-05-01',
      endDate: '2032-05-01',
      details: {
        features: ['36-foot clear height', '48 dock doors', 'Direct Interstate 80 access', 'Solar-ready roofs'],
        propertyType: 'Logistics warehouse',
        size: '240,000 sq ft',
        units: 2,
        yearBuilt: 2021,
        occupancyRate: 88,
        paymentSchedule: 'annually',
        documents: [],
      },
    },
  },
  {
    slug: 'maple-street-lofts',
    pictures: 2,
    fundedBefore: 1_650_000,
    project: {
      title: 'Maple Street Lofts',
      description:
        'A 1924 shoe factory in the Short North arts district, converted into eighteen loft apartments that keep the original brick, timber beams and arched windows. Fully let; this project completed its raise and is shown for reference.',
      location: 'Columbus, Ohio',
      type: 'residential',
      status: 'sold',
      target: 1_650_000,
      roi: 6.8,
      term: 36,
      minInvestment: 5_000,
      startDate: '2025-06-01',
      endDate: '2028-06-01',
      details: {
        features: ['Original arched factory windows', 'Exposed brick and timber beams', 'Shared rooftop terrace', 'Secure bicycle storage'],
        propertyType: 'Converted loft building',
        size: '21,800 sq ft',
        units: 18,
        yearBuilt: 1924,
        occupancyRate: 100,
        paymentSchedule: 'monthly',
        documents: [],
      },
    },
  },
];

/**
 * A one-page PDF fact sheet of a sample project, so that its Documents tab has a real document to open. Plain
 * PDF 1.4 with the standard Helvetica font; only ASCII text, with PDF's string escapes.
 */
function factSheetPdf(project: SampleProject['project']): Buffer {
  const pdfText = (text: string) => text.replace(/[^\x20-\x7e]/g, "'").replace(/[\\()]/g, (c) => `\\${c}`);
  const money = (usd: number) => `$${usd.toLocaleString('en-US')}`;
  const wrap = (text: string, width: number) => {
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(/\s+/)) {
      if (line && line.length + word.length + 1 > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    if (line) lines.push(line);
    return lines;
  };
  const d = project.details;
  const rows: [size: number, text: string][] = [
    [20, project.title],
    [12, `${project.location} - ${project.type} - ${d.propertyType}`],
    [12, ''],
    ...wrap(project.description, 88).map((l): [number, string] => [11, l]),
    [11, ''],
    [13, 'Investment'],
    [11, `Target: ${money(project.target)}    Minimum investment: ${money(project.minInvestment)}`],
    [11, `Expected ROI: ${project.roi}% a year    Term: ${project.term} months    Payments: ${d.paymentSchedule}`],
    [11, `Start: ${project.startDate ?? 'to be announced'}    End: ${project.endDate ?? 'to be announced'}`],
    [11, ''],
    [13, 'Property'],
    [11, `Size: ${d.size}    Units: ${d.units}    Year built: ${d.yearBuilt}    Occupancy: ${d.occupancyRate}%`],
    ...(d.features ?? []).map((f): [number, string] => [11, `- ${f}`]),
    [11, ''],
    [9, 'Sample project published by Terrafund. Figures are projections, not guarantees.'],
  ];
  let y = 780;
  let content = 'BT\n';
  for (const [size, text] of rows) {
    y -= size + 8;
    content += `/F1 ${size} Tf 1 0 0 1 56 ${y} Tm (${pdfText(text)}) Tj\n`;
  }
  content += 'ET\n';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`,
  ];
  return pdfFile(objects);
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

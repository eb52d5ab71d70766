import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import {
  centsToUsd,
  formatCentsUsd,
  messages,
  projectAssetId,
  projectRuleIssues,
  usdToCents,
  UUID_PATTERN,
  type createProjectBody,
  type Project,
  type projectsQuery,
  type updateProjectBody,
} from '@terrafund/contracts';
import type { z } from 'zod';
import type { Executor } from '../../db/client';
import { auditLog, projects, transactions, users, type ProjectDetails, type ProjectRow, type UserRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { PG, toDomainError } from '../../lib/pg-error';
import { mailNewProject } from '../privacy';
import { assetKinds } from './assets.service';

const m = messages.projects;

/** The catalogue is answered whole (the spec's client takes an array); this only bounds a runaway table. */
const PROJECT_LIST_LIMIT = 500;

type ProjectDeps = Pick<Deps, 'db' | 'clock'>;
type CreateBody = z.output<typeof createProjectBody>;
type UpdateBody = z.output<typeof updateProjectBody>;
type Owner = { id: string; firstName: string; lastName: string; email: string };

/** ROI travels as a percent with one decimal (8.5) and is stored in hundredths of a percent (850). */
const roiToBasisPoints = (roi: number) => Math.round(roi * 100);

/** "$5,000", or "$5,000.50" when there are cents: the projects' way of showing money (docs/product.md §11.3 Formats). */
export const formatUsd = (cents: number) => formatCentsUsd(cents, { wholeWithoutCents: true });

function toProjectDto(row: ProjectRow, owner: Owner): Project {
  return {
    _id: row.id,
    owner: { _id: owner.id, firstName: owner.firstName, lastName: owner.lastName, email: owner.email },
    ...formOf(row),
    funded: centsToUsd(row.fundedCents),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const ownerColumns = { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email };

/** Who is looking at a project: its owner's e-mail address is for admins only. */
export type ProjectViewer = Pick<UserRow, 'role'>;

/**
 * A project as `viewer` may see it: admins get the spec's whole `owner {_id, firstName, lastName, email}`;
 * members see the owner by name only, the `email` key left out, so an admin's address never reaches a member.
 */
export function projectFor(viewer: ProjectViewer, project: Project): Project {
  if (viewer.role === 'admin') return project;
  const { email: _hidden, ...owner } = project.owner;
  return { ...project, owner };
}

/** Projects with their owner, newest first. */
async function selectProjects(db: Executor, where: SQL | undefined, limit: number) {
  const rows = await db
    .select({ project: projects, owner: ownerColumns })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .where(where)
    .orderBy(desc(projects.createdAt), desc(projects.id))
    .limit(limit);
  return rows.map((r) => toProjectDto(r.project, r.owner));
}

/** `%`, `_` and the escape character itself match literally in a LIKE pattern once escaped. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The catalogue with the spec's filters, in SQL. Search is a case-insensitive substring of title, description
 * or location: the database keeps their lower-cased concatenation in `search_text`, and its trigram index
 * answers `LIKE '%…%'` without reading every row.
 */
export async function listProjects(deps: Pick<Deps, 'db'>, viewer: ProjectViewer, query: z.output<typeof projectsQuery>): Promise<Project[]> {
  const conditions: SQL[] = [];
  if (query.search) conditions.push(sql`${projects.searchText} like '%' || lower(${escapeLike(query.search)}) || '%' escape '\\'`);
  if (query.type) conditions.push(eq(projects.type, query.type));
  if (query.status) conditions.push(eq(projects.status, query.status));
  const found = await selectProjects(deps.db, conditions.length ? and(...conditions) : undefined, PROJECT_LIST_LIMIT);
  return found.map((project) => projectFor(viewer, project));
}

const notFound = () => new AppError('NOT_FOUND', m.notFound);

/** One project with its owner, in the given transaction or on the database. */
export async function projectById(db: Executor, id: string): Promise<Project> {
  const [project] = await selectProjects(db, eq(projects.id, id), 1);
  if (!project) throw notFound();
  return project;
}

/** One project; a malformed id names nothing, like an unknown one (decisions: 404, never 500). */
export async function getProject(deps: Pick<Deps, 'db'>, viewer: ProjectViewer, id: string): Promise<Project> {
  if (!UUID_PATTERN.test(id)) throw notFound();
  return projectFor(viewer, await projectById(deps.db, id));
}

/**
 * The images and documents a project refers to must be uploads that exist, of the right kind; https
 * documents are taken as they are (the contract allows them).
 */
async function checkAssetReferences(db: Executor, images: string[], details: ProjectDetails) {
  const imageIds = images.map((url) => projectAssetId(url));
  const documentIds = details.documents.map((d) => projectAssetId(d.url));
  const ids = [...imageIds, ...documentIds].filter((id): id is string => id !== undefined);
  const kinds = await assetKinds(db, [...new Set(ids)]);
  const fields: Record<string, string> = {};
  if (imageIds.some((id) => id === undefined || kinds.get(id) !== 'image')) fields.images = m.assetNotFound;
  if (documentIds.some((id) => id !== undefined && kinds.get(id) !== 'document')) fields['details.documents'] = m.assetNotFound;
  const first = Object.values(fields)[0];
  if (first) throw new AppError('VALIDATION_ERROR', first, { fields });
}

/** A validated project form as the table's columns (money in cents, ROI in hundredths of a percent). */
export function projectColumns(body: CreateBody) {
  return {
    title: body.title,
    description: body.description,
    location: body.location,
    type: body.type,
    status: body.status,
    images: body.images,
    targetCents: usdToCents(body.target),
    roiBasisPoints: roiToBasisPoints(body.roi),
    termMonths: body.term,
    minInvestmentCents: usdToCents(body.minInvestment),
    startDate: body.startDate ?? null,
    endDate: body.endDate ?? null,
    details: body.details,
  };
}

/** What an admin edits, in the form's units, so a PATCH can be merged into it and checked as a whole (and the bulk of the DTO). */
function formOf(row: ProjectRow) {
  return {
    title: row.title,
    description: row.description,
    location: row.location,
    type: row.type,
    status: row.status,
    images: row.images,
    target: centsToUsd(row.targetCents),
    roi: row.roiBasisPoints / 100,
    term: row.termMonths,
    minInvestment: centsToUsd(row.minInvestmentCents),
    startDate: row.startDate,
    endDate: row.endDate,
    details: row.details,
  } satisfies CreateBody;
}

/**
 * Admin changes to projects go to the audit log like the other admin decisions. `recordAudit` only names users
 * as targets today, so the row is written here in the same shape (targetType 'project').
 */
async function auditProject(tx: Executor, deps: ProjectDeps, actorId: string, action: string, targetId: string, before: unknown, after: unknown) {
  await tx.insert(auditLog).values({ actorId, action, targetType: 'project', targetId, before, after, createdAt: deps.clock.now() });
}

/** POST /api/projects: the admin becomes the owner; nothing is funded yet. */
export async function createProject(
  deps: ProjectDeps & Pick<Deps, 'secrets' | 'config' | 'mailQueued'>,
  admin: { id: string },
  body: CreateBody,
): Promise<Project> {
  let mailed = 0;
  const project = await deps.db.transaction(async (tx) => {
    await checkAssetReferences(tx, body.images, body.details);
    const now = deps.clock.now();
    const [row] = await tx
      .insert(projects)
      .values({ ...projectColumns(body), ownerId: admin.id, fundedCents: 0, createdAt: now, updatedAt: now })
      .returning({ id: projects.id });
    await auditProject(tx, deps, admin.id, 'project.created', row!.id, null, body);
    // The "New projects" mail (issue 34): members who opted in hear of a project open for investment, once.
    if (body.status === 'available') mailed = await mailNewProject(tx, deps, { id: row!.id, title: body.title, location: body.location });
    return projectById(tx, row!.id);
  });
  if (mailed > 0) deps.mailQueued();
  return project;
}

/**
 * PATCH /api/projects/{id}: the body is merged into the stored project and the merged project must pass
 * every rule a new one passes, and its target may not fall below what members already invested. The row is
 * locked, so an investment arriving meanwhile is counted (and the CHECK funded ≤ target backs this up).
 */
export async function updateProject(deps: ProjectDeps, admin: { id: string }, id: string, body: UpdateBody): Promise<Project> {
  if (!UUID_PATTERN.test(id)) throw notFound();
  try {
    return await deps.db.transaction(async (tx) => {
      const [current] = await tx.select().from(projects).where(eq(projects.id, id)).for('update');
      if (!current) throw notFound();
      const before = formOf(current);
      const defined = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
      const merged: CreateBody = { ...before, ...defined };

      const issues = projectRuleIssues(merged);
      if (usdToCents(merged.target) < current.fundedCents) {
        issues.push({ field: 'target', message: m.targetBelowFunded(formatUsd(current.fundedCents)) });
      }
      if (issues.length > 0) {
        throw new AppError('VALIDATION_ERROR', issues[0]!.message, { fields: Object.fromEntries(issues.map((i) => [i.field, i.message])) });
      }
      await checkAssetReferences(tx, merged.images, merged.details);

      await tx
        .update(projects)
        .set({ ...projectColumns(merged), updatedAt: deps.clock.now() })
        .where(eq(projects.id, id));
      await auditProject(tx, deps, admin.id, 'project.updated', id, before, merged);
      return projectById(tx, id);
    });
  } catch (error) {
    // A target below what was invested meanwhile, or below the minimum investment.
    throw toDomainError(error, [
      {
        code: PG.checkViolation,
        constraints: ['projects_funded_within_target', 'projects_amounts'],
        error: () => new AppError('VALIDATION_ERROR', m.targetInvalid, { fields: { target: m.targetInvalid } }),
      },
    ]);
  }
}

/**
 * DELETE /api/projects/{id}: only a project nobody invested in. Its investments are money history, so the
 * admin is told to close it instead (set it to sold or reserved). The foreign key from transactions refuses
 * the delete as well, should an investment commit between the check and the delete.
 */
export async function deleteProject(deps: ProjectDeps, admin: { id: string }, id: string): Promise<void> {
  if (!UUID_PATTERN.test(id)) throw notFound();
  try {
    await deps.db.transaction(async (tx) => {
      const [current] = await tx.select().from(projects).where(eq(projects.id, id)).for('update');
      if (!current) throw notFound();
      const [investment] = await tx
        .select({ id: transactions.id })
        .from(transactions)
        .where(eq(transactions.projectId, id))
        .limit(1);
      if (investment) throw new AppError('CONFLICT', m.hasInvestments);
      await tx.delete(projects).where(eq(projects.id, id));
      await auditProject(tx, deps, admin.id, 'project.deleted', id, formOf(current), null);
    });
  } catch (error) {
    throw toDomainError(error, [
      { code: PG.foreignKeyViolation, constraints: ['transactions_project_id_projects_id_fk'], error: () => new AppError('CONFLICT', m.hasInvestments) },
    ]);
  }
}

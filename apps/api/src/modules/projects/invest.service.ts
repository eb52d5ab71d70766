import { eq, sql } from 'drizzle-orm';
import { formatCentsFixed, messages, usdToCents, UUID_PATTERN, type investBody, type InvestResponse } from '@terrafund/contracts';
import type { z } from 'zod';
import { queryRows, type Executor } from '../../db/client';
import { projects, transactions, type UserRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { PG, toDomainError } from '../../lib/pg-error';
import { InsufficientBalanceError, memberAccount, memberBalance, postEntry, type LedgerProblem } from '../ledger';
import { enqueueMail } from '../mail';
import { notify } from '../notifications';
import { toTransactionDto } from '../transactions';
import { formatUsd, projectById, projectFor } from './projects.service';

const m = messages.projects;
const amountError = (message: string) => new AppError('VALIDATION_ERROR', message, { fields: { amount: message } });

/**
 * The smallest amount accepted now: the project's minimum, or what is left when less than the minimum is left,
 * so that the last slice of a project can still be taken and it can reach its target.
 */
const smallestInvestment = (minCents: number, remainingCents: number) => Math.min(minCents, remainingCents);

/**
 * POST /api/projects/{id}/invest (docs/product.md §6 Projects and investing): a real investment from the wallet balance. In one
 * database transaction the project row is locked (simultaneous investments in one project queue here, so the
 * remaining amount each one sees is the true one), the `investment` transaction is written, the journal entry
 * moves the amount from the member's wallet to their invested account, and the project's funded amount rises.
 * The database backs each limit on its own: the ledger refuses a negative wallet, and a CHECK keeps funded
 * within target.
 */
export async function invest(deps: Deps, user: UserRow, projectId: string, body: z.output<typeof investBody>): Promise<InvestResponse> {
  if (!UUID_PATTERN.test(projectId)) throw new AppError('NOT_FOUND', m.notFound);
  const cents = usdToCents(body.amount);

  try {
    const answer = await deps.db.transaction(async (tx) => {
      const [project] = await tx.select().from(projects).where(eq(projects.id, projectId)).for('update');
      if (!project) throw new AppError('NOT_FOUND', m.notFound);
      if (user.kycStatus !== 'approved' || !user.kycVerified) throw new AppError('FORBIDDEN', m.kycRequired);
      if (project.status !== 'available') throw new AppError('CONFLICT', m.notAvailable);
      const remaining = project.targetCents - project.fundedCents;
      if (remaining <= 0) throw new AppError('CONFLICT', m.fullyFunded);
      if (cents < smallestInvestment(project.minInvestmentCents, remaining)) {
        throw amountError(m.minInvestment(formatUsd(smallestInvestment(project.minInvestmentCents, remaining))));
      }
      if (cents > remaining) throw amountError(m.exceedsRemaining(formatUsd(remaining)));
      // A courtesy check for the common case; the ledger's CHECK is what holds under concurrency.
      if ((await memberBalance(tx, user.id, 'member_wallet')) < cents) throw amountError(m.insufficientBalance);

      const now = deps.clock.now();
      const [created] = await tx
        .insert(transactions)
        .values({
          userId: user.id,
          type: 'investment',
          amountCents: cents,
          status: 'completed',
          description: `Investment in ${project.title}`,
          projectId: project.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const wallet = await memberAccount(tx, user.id, 'member_wallet');
      const invested = await memberAccount(tx, user.id, 'member_invested');
      const { entryId } = await postEntry(tx, deps, {
        kind: 'investment',
        idempotencyKey: `investment:${created!.id}`,
        description: created!.description,
        metadata: { transactionId: created!.id, projectId: project.id },
        lines: [
          { accountId: wallet, amountCents: -cents },
          { accountId: invested, amountCents: cents },
        ],
      });
      const [transaction] = await tx.update(transactions).set({ entryId }).where(eq(transactions.id, created!.id)).returning();
      await tx
        .update(projects)
        .set({ fundedCents: sql`${projects.fundedCents} + ${cents}`, updatedAt: now })
        .where(eq(projects.id, project.id));
      // The member hears of money leaving their wallet, as with a withdrawal.
      const amount = formatCentsFixed(cents);
      await notify(tx, deps, user.id, 'investment.made', { amount, project: project.title }, `investment.made:${created!.id}`);
      await enqueueMail(tx, deps, user.email, 'investmentMade', {
        firstName: user.firstName,
        amount,
        project: project.title,
        investedAt: `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
        projectUrl: `${deps.config.publicUrl}/projects/${project.id}`,
      });
      return { transaction: toTransactionDto(transaction!), project: projectFor(user, await projectById(tx, project.id)) };
    });
    deps.mailQueued();
    return answer;
  } catch (error) {
    if (error instanceof InsufficientBalanceError) throw amountError(m.insufficientBalance);
    // Only reachable if something bypassed the row lock: the database's CHECK funded ≤ target still holds.
    throw toDomainError(error, [
      { code: PG.checkViolation, constraints: ['projects_funded_within_target'], error: () => new AppError('CONFLICT', m.fullyFunded) },
    ]);
  }
}

/**
 * The projects' part of `npm run ledger:check`: each project's funded amount is what it raised before it was
 * listed (`funded_before_cents`, the samples' only) plus the sum of its completed investments and stays within its target; each member's invested balance is the sum of their completed
 * investments; each completed investment names the journal entry that moved its money.
 */
export async function checkProjectLedger(db: Executor): Promise<LedgerProblem[]> {
  const problems: LedgerProblem[] = [];
  const funded = await queryRows<{ id: string; funded: string; invested: string }>(db, sql`
    select p.id, p.funded_cents::text as funded, (p.funded_before_cents + coalesce(sum(t.amount_cents), 0))::text as invested
    from projects p
    left join transactions t on t.project_id = p.id and t.type = 'investment' and t.status = 'completed'
    group by p.id having p.funded_cents <> p.funded_before_cents + coalesce(sum(t.amount_cents), 0)`);
  for (const r of funded) {
    problems.push({ rule: 'project funded equals its investments', detail: `project ${r.id}: funded ${r.funded}, investments ${r.invested}` });
  }
  const overTarget = await queryRows<{ id: string; funded: string; target: string }>(db, sql`
    select id, funded_cents::text as funded, target_cents::text as target
    from projects where funded_cents > target_cents or funded_cents < 0`);
  for (const r of overTarget) {
    problems.push({ rule: 'project funded within its target', detail: `project ${r.id}: funded ${r.funded}, target ${r.target}` });
  }
  const invested = await queryRows<{ user_id: string; balance: string; invested: string }>(db, sql`
    with accounts as (
      select user_id, balance_cents from ledger_accounts where kind = 'member_invested'
    ), investments as (
      select user_id, sum(amount_cents) as total from transactions
      where type = 'investment' and status = 'completed' group by user_id
    )
    select coalesce(a.user_id, i.user_id) as user_id, coalesce(a.balance_cents, 0)::text as balance,
      coalesce(i.total, 0)::text as invested
    from accounts a full outer join investments i on i.user_id = a.user_id
    where coalesce(a.balance_cents, 0) <> coalesce(i.total, 0)`);
  for (const r of invested) {
    problems.push({ rule: 'member invested equals their investments', detail: `member ${r.user_id}: invested balance ${r.balance}, investments ${r.invested}` });
  }
  const unexplained = await queryRows<{ id: string }>(db, sql`
    select t.id from transactions t
    left join journal_entries e on e.id = t.entry_id and e.idempotency_key = 'investment:' || t.id::text
    where t.type = 'investment' and t.status = 'completed' and e.id is null`);
  for (const r of unexplained) {
    problems.push({ rule: 'investment has its journal entry', detail: `transaction ${r.id}` });
  }
  return problems;
}

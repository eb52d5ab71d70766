import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { investBody, messages, type Project, type User } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { LockIcon, WalletIcon } from 'lucide-react';
import { Input } from '@/components/ui/input';
import { Progress } from '@/components/ui/progress';
import { useUser } from '@/lib/auth';
import { formatUsd } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { useInvestInProject } from '../api/invest-in-project';
import { formatAmount, formatFigure, fundedPercent, remainingOf, smallestInvestment } from '../utils/project-figures';

const m = messages.projects;

/** Why nobody can invest in this project now, if nobody can. */
function closedReason(project: Project): string | null {
  if (remainingOf(project) <= 0) return m.fullyFunded;
  if (project.status !== 'available') return m.notAvailable;
  return null;
}

/**
 * What is wrong with the amount typed, with the server's rules and words (docs/product.md §6 Projects and investing): a valid
 * amount of money, at least the minimum, at most what is still open. The wallet balance is the server's to
 * judge: the balance shown here may be a few minutes old.
 */
function amountProblem(raw: string, project: Project): string | null {
  const amount = Number(raw);
  if (raw.trim() === '' || !investBody.safeParse({ amount }).success) return m.amountInvalid;
  const smallest = smallestInvestment(project);
  if (amount < smallest) return m.minInvestment(formatAmount(smallest));
  const remaining = remainingOf(project);
  if (amount > remaining) return m.exceedsRemaining(formatAmount(remaining));
  return null;
}

function KycGate({ user }: { user: User }) {
  const pending = user.kycStatus === 'pending';
  const { t, say } = useT('projects');
  return (
    <div className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-100">
      <p className="flex items-center gap-2 font-semibold">
        <LockIcon className="h-4 w-4 shrink-0" />
        {pending ? t('invest.pendingTitle') : t('invest.requiredTitle')}
      </p>
      <p className="mt-1 opacity-90">
        {pending ? t('invest.pendingText') : say(m.kycRequired)}
      </p>
      <Link to={paths.kyc.getHref()} className={buttonClasses({ variant: 'outline', size: 'sm', className: 'mt-3' })}>
        {pending ? t('invest.viewStatus') : t('invest.complete')}
      </Link>
    </div>
  );
}

/** Funding progress and the investment form (docs/product.md §2.5 Member screens, §6.1 A project; docs/product.md §4 KYC, §6 Projects and investing). */
export function InvestBox({ project }: { project: Project }) {
  const user = useUser();
  const invest = useInvestInProject(project._id);
  const { t, say } = useT('projects');
  // Prefilled with the smallest amount accepted: the minimum, or the last slice when less than it is left.
  const [raw, setRaw] = useState(() => String(smallestInvestment(project)));
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();

  const percent = fundedPercent(project);
  const remaining = remainingOf(project);
  const lastSlice = remaining > 0 && remaining < project.minInvestment;
  const closed = closedReason(project);
  const problem = closed ? null : amountProblem(raw, project);
  const verified = user.kycStatus === 'approved';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (closed || !verified || invest.isPending) return;
    if (problem) {
      // The message is already under the field; take the member there.
      inputRef.current?.focus();
      return;
    }
    invest.mutate({ amount: Number(raw) }, { onSuccess: (answer) => setRaw(String(smallestInvestment(answer.project))) });
  };

  return (
    <Card className="p-5 sm:p-6">
      <h2 className="text-lg font-semibold text-slate-900 dark:text-white">{t('invest.title')}</h2>

      <div className="mt-4">
        <div className="mb-1.5 flex items-baseline justify-between gap-2 text-sm">
          <span className="font-medium text-slate-700 dark:text-slate-200">{t('invest.funded', { percent })}</span>
          <span className="text-slate-500 tabular-nums dark:text-slate-400">
            {formatFigure(project.funded)} / {formatFigure(project.target)}
          </span>
        </div>
        <Progress value={percent} label={t('invest.progress')} valueText={t('invest.funded', { percent })} />
        <p className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">{t('invest.open', { amount: formatAmount(remaining) })}</p>
      </div>

      <form onSubmit={submit} noValidate className="mt-5 space-y-4">
        <div>
          <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
            {t('invest.amount')}
          </label>
          <div className="relative">
            <span aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3.5 -translate-y-1/2 text-sm text-slate-400">
              $
            </span>
            <Input
              ref={inputRef}
              id={inputId}
              type="number"
              inputMode="decimal"
              min={smallestInvestment(project)}
              max={remaining}
              step="any"
              value={raw}
              onChange={(event) => setRaw(event.target.value)}
              disabled={Boolean(closed) || invest.isPending}
              aria-invalid={problem ? true : undefined}
              aria-describedby={[problem ? errorId : null, hintId].filter(Boolean).join(' ')}
              className="pl-7 tabular-nums"
            />
          </div>
          <p id={hintId} className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
            {/* Less than the minimum is left: exactly that last slice is accepted, so the project can fill. */}
            {lastSlice ? t('invest.remaining', { amount: formatAmount(remaining) }) : t('invest.minimum', { amount: formatFigure(project.minInvestment) })}
          </p>
          <p id={errorId} aria-live="polite" className="mt-1 text-sm text-rose-600 empty:hidden dark:text-rose-400">
            {problem && say(problem)}
          </p>
        </div>

        <p className="flex items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2.5 text-sm dark:bg-slate-800/60">
          <span className="flex items-center gap-2 text-slate-500 dark:text-slate-400">
            <WalletIcon className="h-4 w-4" />
            {t('invest.balance')}
          </span>
          {/* With its cents: a balance rounded up would promise money that is not there. */}
          <span className="font-semibold text-slate-900 tabular-nums dark:text-white">{formatUsd(user.balance)}</span>
        </p>

        {closed ? (
          <div className="space-y-2">
            <Button type="submit" className="w-full" disabled>
              {t('invest.submit')}
            </Button>
            <p role="note" className="text-center text-sm text-slate-500 dark:text-slate-400">
              {say(closed)}
            </p>
          </div>
        ) : verified ? (
          <Button type="submit" className="w-full" size="lg" disabled={Boolean(problem)} isLoading={invest.isPending}>
            {t('invest.submit')}
          </Button>
        ) : (
          <KycGate user={user} />
        )}
      </form>
    </Card>
  );
}

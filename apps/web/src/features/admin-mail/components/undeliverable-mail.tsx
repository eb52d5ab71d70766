import { useId } from 'react';
import { mailMessages, type UndeliverableMail as Mail } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { QueueHeading, QueueStates } from '@/components/ui/queue-states';
import { formatDateTime } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { useUndeliverableMail } from '../api/get-undeliverable-mail';
import { useResendMail } from '../api/resend-mail';

/**
 * Mail the outbox tried for 24 hours without getting it through, newest first, each with what was tried and
 * **Send again** (a fresh day of attempts). When there is none it says so in one line.
 */
export function UndeliverableMail() {
  const query = useUndeliverableMail();
  const { t, say } = useT('admin');
  const headingId = useId();
  const mails = query.data?.pages.flatMap((page) => page.items) ?? [];
  const total = query.data?.pages[0]?.total;

  return (
    <Card className="overflow-hidden" role="region" aria-labelledby={headingId}>
      <div className="border-b border-slate-200 px-4 py-4 sm:px-5 dark:border-slate-800">
        <QueueHeading id={headingId} title={t('mail.title')} count={total} description={t('mail.description')} />
      </div>

      <QueueStates
        query={query}
        isEmpty={mails.length === 0}
        loadingLabel={t('mail.loading')}
        failedText={say(mailMessages.loadFailed)}
        retryLabel={t('mail.tryAgain')}
        emptyText={t('mail.empty')}
      >
        <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-labelledby={headingId}>
          {mails.map((mail) => (
            <MailItem key={mail.id} mail={mail} />
          ))}
        </ul>
        {query.hasNextPage && (
          <div className="border-t border-slate-200 px-4 py-3 sm:px-5 dark:border-slate-800">
            <Button variant="outline" size="sm" onClick={() => void query.fetchNextPage()} isLoading={query.isFetchingNextPage}>
              {t('mail.loadMore')}
            </Button>
          </div>
        )}
      </QueueStates>
    </Card>
  );
}

function MailItem({ mail }: { mail: Mail }) {
  const resend = useResendMail();
  const { t, say } = useT('admin');
  const labelId = useId();
  return (
    <li aria-labelledby={labelId} className="flex flex-wrap items-start justify-between gap-3 px-4 py-4 sm:px-5">
      <div className="min-w-0 space-y-1 text-sm">
        <p id={labelId} className="font-medium text-slate-900 dark:text-white">
          {mail.subject} <span className="font-normal text-slate-500 dark:text-slate-400">{t('mail.to', { recipient: mail.recipient })}</span>
        </p>
        <p className="text-slate-600 dark:text-slate-300">
          {mail.firstFailedAt
            ? t('mail.queuedFailing', { queued: formatDateTime(mail.createdAt), failing: formatDateTime(mail.firstFailedAt), count: mail.attempts })
            : t('mail.queued', { queued: formatDateTime(mail.createdAt), count: mail.attempts })}
        </p>
        {mail.lastError && <p className="break-all text-slate-500 dark:text-slate-400">{t('mail.lastError', { error: mail.lastError })}</p>}
        {!mail.resendable && <p className="text-slate-500 dark:text-slate-400">{say(mailMessages.noBody)}</p>}
      </div>
      {mail.resendable && (
        <Button size="sm" onClick={() => resend.mutate(mail.id)} isLoading={resend.isPending} disabled={resend.isSuccess}>
          {t('mail.sendAgain')}
        </Button>
      )}
    </li>
  );
}

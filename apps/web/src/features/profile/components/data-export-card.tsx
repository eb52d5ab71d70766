import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { DATA_EXPORT_TTL_DAYS, messages, type DataExport, type User } from '@terrafund/contracts';
import { DownloadIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage, isApiError } from '@/lib/api-client';
import { applyServerFieldErrors } from '@/lib/form-errors';
import { formatDateTime } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { useDownloadDataExport } from '../api/download-data-export';
import { useDataExports } from '../api/get-data-exports';
import { useRequestDataExport } from '../api/request-data-export';
import { stepUpBody, stepUpKindOf, stepUpRules } from '../utils/step-up';
import { ProfileCard } from './profile-card';
import { StepUpField, useReturnFocus } from './step-up-field';

type Form = { password: string; code: string };
const empty: Form = { password: '', code: '' };

/** What the export holds, in the member's words (the API's ZIP: profile.json, transactions.csv, …): export.contents.*. */
const CONTENTS = ['profile', 'transactions', 'notifications', 'decisions'] as const;

/**
 * Profile → Privacy → Download my data (issue 34): the step-up asks for the export, then the list shows each one
 * with its status, asked again every moment while one is being prepared, and a Download button once it is ready.
 */
export function DataExportCard({ user }: { user: Pick<User, 'twoFactorEnabled'> }) {
  const [asking, setAsking] = useState(false);
  const opener = useReturnFocus(asking);
  const { t } = useT('profile');
  return (
    <ProfileCard id="data-export-title" title={t('export.title')} description={t('export.description', { count: DATA_EXPORT_TTL_DAYS })}>
      <div className="space-y-5 px-5 py-5 sm:px-6">
        <div className="text-sm text-slate-600 dark:text-slate-300">
          <p>{t('export.contains')}</p>
          <ul className="mt-1.5 list-disc space-y-1 pl-5">
            {CONTENTS.map((line) => (
              <li key={line}>{t(`export.contents.${line}`)}</li>
            ))}
          </ul>
        </div>
        {/* The step-up opens on request, so the page does not greet the member with a second password field. */}
        {asking ? (
          <RequestForm user={user} onDone={() => setAsking(false)} />
        ) : (
          <div className="flex justify-end">
            <Button ref={opener} onClick={() => setAsking(true)} className="w-full sm:w-auto">
              {t('export.request')}
            </Button>
          </div>
        )}
        <ExportList />
      </div>
    </ProfileCard>
  );
}

function RequestForm({ user, onDone }: { user: Pick<User, 'twoFactorEnabled'>; onDone: () => void }) {
  const kind = stepUpKindOf(user);
  const request = useRequestDataExport();
  const { t, say } = useT('profile');
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors },
  } = useForm<Form>({ defaultValues: empty });
  useEffect(() => setFocus(kind), [setFocus, kind]);

  const onSubmit = handleSubmit((values) => {
    if (request.isPending) return;
    request.mutate(stepUpBody(kind, values), {
      onSuccess: () => {
        toast.success(say(messages.privacy.exportStarted));
        onDone();
      },
      onError: (error) => {
        if (isApiError(error) && error.status === 401) return;
        if (!applyServerFieldErrors(error, setError, { password: null, code: null })) {
          toast.error(errorMessage(error, say(messages.privacy.exportFailed)));
        }
      },
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('export.formLabel')} className="space-y-4 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <StepUpField kind={kind} error={errors[kind]?.message} registration={register(kind, stepUpRules(kind))} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onDone}>
          {t('export.cancel')}
        </Button>
        <Button type="submit" isLoading={request.isPending}>
          {t('export.prepare')}
        </Button>
      </div>
    </form>
  );
}

function ExportList() {
  const exports = useDataExports();
  const download = useDownloadDataExport();
  const { t } = useT('profile');

  if (exports.isPending) return <Spinner label={t('export.loading')} />;
  if (exports.isError || exports.data.length === 0) return null;

  return (
    <div>
      <h3 className="mb-2 text-sm font-semibold text-slate-900 dark:text-white">{t('export.yours')}</h3>
      <ul aria-label={t('export.list')} className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {exports.data.map((item) => (
          <ExportRow
            key={item.id}
            item={item}
            downloading={download.isPending && download.variables?.id === item.id}
            onDownload={() => download.mutate(item)}
          />
        ))}
      </ul>
    </div>
  );
}

function ExportRow({ item, downloading, onDownload }: { item: DataExport; downloading: boolean; onDownload: () => void }) {
  const requested = formatDateTime(item.createdAt);
  const { t } = useT('profile');
  // A ready export's link works for 7 days; after that the server answers 410 and a new export must be asked for.
  const expired = item.status === 'ready' && new Date(item.expiresAt).getTime() <= Date.now();
  const downloadable = item.status === 'ready' && !expired;
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-900 dark:text-white">
          {t('export.requested')} <time dateTime={item.createdAt}>{requested}</time>
        </p>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          {item.status === 'pending' ? (
            t('export.preparing')
          ) : (
            <>
              {expired ? t('export.expiredOn') : t('export.until')}
              <time dateTime={item.expiresAt}>{formatDateTime(item.expiresAt)}</time>
            </>
          )}
        </p>
      </div>
      <div className="flex items-center gap-3">
        {/* A live region, so a screen reader hears the export become ready. */}
        <span role="status">
          {item.status === 'pending' ? (
            <Badge tone="warning">{t('export.badgePreparing')}</Badge>
          ) : expired ? (
            <Badge tone="neutral">{t('export.badgeExpired')}</Badge>
          ) : (
            <Badge tone="success">{t('export.badgeReady')}</Badge>
          )}
        </span>
        {downloadable && (
          <Button variant="outline" size="sm" onClick={onDownload} isLoading={downloading} aria-label={t('export.downloadLabel', { date: requested })}>
            <DownloadIcon className="h-4 w-4" aria-hidden="true" />
            {t('export.download')}
          </Button>
        )}
      </div>
    </li>
  );
}

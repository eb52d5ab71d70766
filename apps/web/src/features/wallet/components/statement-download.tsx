import { useState, type FormEvent } from 'react';
import { statementQuery } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useT } from '@/lib/i18n';
import { useDownloadStatement } from '../api/download-statement';

const today = () => new Date().toISOString().slice(0, 10);
const startOfMonth = () => `${today().slice(0, 8)}01`;

/**
 * **Download statement**: the member's transactions between two days (both included, UTC) as a CSV file. The
 * range is checked with the server's own rule before asking.
 */
export function StatementDownload() {
  const [from, setFrom] = useState(startOfMonth);
  const [to, setTo] = useState(today);
  const [errors, setErrors] = useState<{ from?: string; to?: string }>({});
  const download = useDownloadStatement();
  const { t, say } = useT('wallet');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = statementQuery.safeParse({ from, to });
    if (!parsed.success) {
      const found: { from?: string; to?: string } = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'from' ? 'from' : 'to';
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    download.mutate(parsed.data);
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('statement.label')} className="flex flex-wrap items-end gap-3">
      <div className="w-40">
        <FormField label={t('statement.from')} error={errors.from && say(errors.from)}>
          {(control) => <Input {...control} type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} className="h-9" />}
        </FormField>
      </div>
      <div className="w-40">
        <FormField label={t('statement.to')} error={errors.to && say(errors.to)}>
          {(control) => <Input {...control} type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} className="h-9" />}
        </FormField>
      </div>
      <Button type="submit" variant="outline" size="sm" className="h-9" isLoading={download.isPending}>
        {t('statement.download')}
      </Button>
    </form>
  );
}

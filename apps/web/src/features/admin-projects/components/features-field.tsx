import { useId, useState, type KeyboardEvent } from 'react';
import { PROJECT_MAX_FEATURES } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { CheckCircleIcon, PlusIcon, TrashIcon } from 'lucide-react';
import { Input } from '@/components/ui/input';
import { useT } from '@/lib/i18n';

type FeaturesFieldProps = {
  value: readonly string[];
  onChange: (features: string[]) => void;
  error?: string;
};

const FEATURE_MAX_LENGTH = 200;

/** The key features list: typed one at a time (Enter or Add), removed one at a time. */
export function FeaturesField({ value, onChange, error }: FeaturesFieldProps) {
  const [draft, setDraft] = useState('');
  const { t, say } = useT('admin');
  const inputId = useId();
  const errorId = useId();
  const full = value.length >= PROJECT_MAX_FEATURES;
  const trimmed = draft.trim();

  const add = () => {
    if (!trimmed || full) return;
    // The same feature twice says nothing more.
    if (!value.some((feature) => feature.toLowerCase() === trimmed.toLowerCase())) onChange([...value, trimmed]);
    setDraft('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the feature instead of submitting the whole form.
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add();
  };

  return (
    <div className="space-y-3">
      {value.length > 0 && (
        <ul aria-label={t('projects.features.list')} className="space-y-2">
          {value.map((feature, i) => (
            <li
              key={`${feature}-${i}`}
              className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 py-1 pr-1 pl-3 text-sm dark:border-slate-800"
            >
              <span className="flex min-w-0 items-center gap-2 text-slate-700 dark:text-slate-200">
                <CheckCircleIcon className="h-4 w-4 shrink-0 text-emerald-500" />
                <span className="break-words">{feature}</span>
              </span>
              <Button variant="ghost" size="sm" className="h-8 w-8 p-0" onClick={() => onChange(value.filter((_, j) => j !== i))} aria-label={t('projects.features.remove', { feature })}>
                <TrashIcon className="h-4 w-4" />
              </Button>
            </li>
          ))}
        </ul>
      )}
      {!full && (
        <div className="flex gap-2">
          <label htmlFor={inputId} className="sr-only">
            {t('projects.features.new')}
          </label>
          <Input
            id={inputId}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onKeyDown}
            maxLength={FEATURE_MAX_LENGTH}
            placeholder={t('projects.features.placeholder')}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
          <Button variant="outline" onClick={add} disabled={!trimmed}>
            <PlusIcon className="h-4 w-4" />
            {t('projects.features.add')}
          </Button>
        </div>
      )}
      {error && (
        <p id={errorId} className="text-sm text-rose-600 dark:text-rose-400">
          {say(error)}
        </p>
      )}
    </div>
  );
}

import { useEffect, useState, type MouseEvent } from 'react';
import { CheckIcon, CopyIcon } from 'lucide-react';
import { cn } from '@/lib/cn';
import { useT } from '@/lib/i18n';

const COPIED_FOR_MS = 2000;

/** Copies a value (an id, an address, a hash) to the clipboard, and says so for two seconds. */
export function CopyButton({ value, label, className }: { value: string; label: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  const { t } = useT('admin');

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async (event: MouseEvent) => {
    // The button sits inside a clickable row: copying must not also open the row.
    event.stopPropagation();
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the full value stays on screen to select.
    }
  };

  return (
    <>
      <button
        type="button"
        onClick={copy}
        aria-label={label}
        title={copied ? t('transactions.copied') : label}
        className={cn(
          'inline-flex h-7 w-7 shrink-0 items-center justify-center rounded-md text-slate-400 transition-colors hover:bg-slate-100 hover:text-slate-700',
          'focus-visible:outline-2 focus-visible:outline-emerald-500 dark:hover:bg-slate-800 dark:hover:text-slate-200',
          className,
        )}
      >
        {copied ? <CheckIcon className="h-4 w-4 text-emerald-600 dark:text-emerald-400" /> : <CopyIcon className="h-4 w-4" />}
      </button>
      <span aria-live="polite" className="sr-only">
        {copied ? t('transactions.copied') : ''}
      </span>
    </>
  );
}

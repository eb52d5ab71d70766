import type { ReactNode } from 'react';
import { AlertTriangleIcon } from 'lucide-react';
import { cn } from '@/lib/cn';
import { Button } from './button';
import { EmptyState } from './empty-state';
import { Spinner } from './spinner';
import { useT } from '@/lib/i18n';

/** A section's spinner while its data loads, centred in the room the data will take. */
export function LoadingBlock({ label, className = 'py-16' }: { label: string; className?: string }) {
  return (
    <div className={cn('flex justify-center', className)}>
      <Spinner label={label} />
    </div>
  );
}

type LoadFailedProps = {
  title: ReactNode;
  description?: ReactNode;
  className?: string;
  /** The query that failed: Try again asks it again, and spins while it does. */
  query: { refetch: () => unknown; isFetching: boolean };
  size?: 'sm';
  /** Another way forward, beside Try again. */
  alternative?: ReactNode;
};

/** What a section shows when its data could not be loaded: the failure and a Try again button. */
export function LoadFailed({ title, description, className, query, size, alternative }: LoadFailedProps) {
  const { t } = useT();
  const retry = (
    <Button variant="outline" size={size} onClick={() => void query.refetch()} isLoading={query.isFetching}>
      {t('tryAgain')}
    </Button>
  );
  return (
    <EmptyState
      className={className}
      icon={<AlertTriangleIcon className="h-5 w-5" />}
      title={title}
      description={description}
      action={
        alternative ? (
          <div className="flex flex-wrap justify-center gap-2">
            {retry}
            {alternative}
          </div>
        ) : (
          retry
        )
      }
    />
  );
}

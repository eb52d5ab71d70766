import type { ReactNode } from 'react';

/** The title row of a profile card: its heading, a line of explanation and an optional action. */
export function SectionHeader({
  id,
  title,
  description,
  action,
}: {
  id?: string;
  title: string;
  description?: string;
  action?: ReactNode;
}) {
  return (
    <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 py-4 sm:px-6 dark:border-slate-800">
      <div className="min-w-0">
        <h2 id={id} className="text-base font-semibold text-slate-900 dark:text-white">
          {title}
        </h2>
        {description && <p className="mt-0.5 text-sm text-slate-500 dark:text-slate-400">{description}</p>}
      </div>
      {action && <div className="shrink-0">{action}</div>}
    </div>
  );
}

/**
 * For a full-width button in the narrow Security column: its label may take two lines (French and Spanish labels run
 * longer than the English ones) rather than run out of the card; one line is as tall as a plain button's.
 */
export const wrappingButton = 'h-auto! min-h-8 py-1.5 text-center whitespace-normal! max-sm:h-auto! max-sm:min-h-11';

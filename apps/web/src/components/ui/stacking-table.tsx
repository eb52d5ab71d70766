import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

const th = 'py-3 text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase dark:text-slate-400';

// Whole class names, so that Tailwind finds them in the source.
const layouts = {
  md: {
    table: 'block w-full text-left text-sm md:table',
    thead: 'hidden border-b border-slate-200 bg-slate-50/80 md:table-header-group dark:border-slate-800 dark:bg-slate-900/80',
    tbody: 'block divide-y divide-slate-200 md:table-row-group dark:divide-slate-800',
  },
  xl: {
    table: 'block w-full text-left text-sm xl:table',
    thead: 'hidden border-b border-slate-200 bg-slate-50/80 xl:table-header-group dark:border-slate-800 dark:bg-slate-900/80',
    tbody: 'block divide-y divide-slate-200 xl:table-row-group dark:divide-slate-800',
  },
};

type StackingTableProps = {
  caption: string;
  /** The column headings; the last one (the row's actions) stands at the right when `actions` is set. */
  columns: readonly ReactNode[];
  actions?: boolean;
  /** From which width it is a table; below it each row is a card whose cells wrap. */
  from: keyof typeof layouts;
  busy?: boolean;
  /** The headings' side padding, to line up with the cells'. */
  headerPadding?: 'px-4' | 'px-5';
  children: ReactNode;
};

/**
 * A table that stays readable on a phone: from `from` up a table with a header row; below it the header is
 * hidden and each row (styled by the caller) stacks into a card, so that nothing scrolls sideways.
 */
export function StackingTable({ caption, columns, actions = false, from, busy, headerPadding = 'px-4', children }: StackingTableProps) {
  const layout = layouts[from];
  return (
    <table aria-busy={busy || undefined} className={layout.table}>
      <caption className="sr-only">{caption}</caption>
      <thead className={layout.thead}>
        <tr>
          {columns.map((column, index) => (
            <th key={index} scope="col" className={cn(headerPadding, th, actions && index === columns.length - 1 && 'text-right')}>
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={layout.tbody}>{children}</tbody>
    </table>
  );
}

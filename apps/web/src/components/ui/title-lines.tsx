/**
 * A row's name over its detail (a member's e-mail, a project's place), each cut to one line with the whole
 * text on hover, so a long one never widens the table.
 */
export function TitleLines({ title, detail, className = 'min-w-0' }: { title: string; detail: string; className?: string }) {
  return (
    <div className={className}>
      <p title={title} className="truncate font-medium text-slate-900 dark:text-white">
        {title}
      </p>
      <p title={detail} className="truncate text-slate-500 dark:text-slate-400">
        {detail}
      </p>
    </div>
  );
}

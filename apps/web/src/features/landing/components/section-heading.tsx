import type { ReactNode } from 'react';

type SectionHeadingProps = {
  id: string;
  eyebrow: string;
  title: string;
  children?: ReactNode;
  align?: 'center' | 'left';
};

/** Eyebrow, h2 and intro shared by the page's sections; `id` is what the section's aria-labelledby names. */
export function SectionHeading({ id, eyebrow, title, children, align = 'center' }: SectionHeadingProps) {
  return (
    <div className={align === 'center' ? 'mx-auto max-w-2xl text-center' : 'max-w-2xl'}>
      <p className="text-sm font-semibold tracking-wide text-emerald-700 uppercase dark:text-emerald-400">{eyebrow}</p>
      <h2 id={id} className="mt-3 text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-4xl dark:text-white">
        {title}
      </h2>
      {children && <div className="mt-4 text-lg leading-relaxed text-slate-600 dark:text-slate-300">{children}</div>}
    </div>
  );
}

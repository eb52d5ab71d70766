type LogoProps = { className?: string };

/**
 * The product mark with its word. Two variants (docs/product.md §2.3 Layout): dark text on light backgrounds and
 * light text on dark ones, switched by the `dark` class on <html>.
 */
export function Logo({ className = '' }: LogoProps) {
  return (
    <span className={`inline-flex items-center gap-2 font-semibold tracking-tight ${className}`}>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="h-8 w-8 shrink-0">
        <rect width="32" height="32" rx="7" className="fill-emerald-600 dark:fill-emerald-500" />
        <path d="M7 22 16 9l9 13h-5l-4-6-4 6z" className="fill-white dark:fill-slate-950" />
      </svg>
      <span className="text-lg text-slate-900 dark:text-white">Terrafund</span>
    </span>
  );
}

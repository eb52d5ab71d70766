import { useTheme } from '@/lib/theme';
import { cn } from '@/lib/cn';
import { MoonIcon, SunIcon } from 'lucide-react';
import { useT } from '@/lib/i18n';

/** Switches between the dark (default) and light themes; the choice is remembered (docs/product.md §2.7 The session in the browser). */
export function ThemeToggle({ className }: { className?: string }) {
  const { theme, toggleTheme } = useTheme();
  const dark = theme === 'dark';
  const { t } = useT();
  const label = dark ? t('theme.toLight') : t('theme.toDark');
  return (
    <button
      type="button"
      onClick={toggleTheme}
      aria-label={label}
      title={label}
      className={cn(
        'inline-flex h-10 w-10 items-center max-sm:h-11 max-sm:w-11 justify-center rounded-lg text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-900',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500',
        'dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white',
        className,
      )}
    >
      {dark ? <SunIcon className="h-5 w-5" /> : <MoonIcon className="h-5 w-5" />}
    </button>
  );
}

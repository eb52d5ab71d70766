import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { useDisclosure } from './use-disclosure';

type DropdownProps = {
  /** The trigger's content (icon, avatar, text). */
  trigger: ReactNode;
  /** The trigger's accessible name, when its content alone does not say what it opens. */
  label?: string;
  triggerClassName?: string;
  panelClassName?: string;
  align?: 'left' | 'right';
  /** Called each time the panel opens (to refresh what it shows). */
  onOpen?: () => void;
  children: (controls: { close: () => void }) => ReactNode;
};

/**
 * A button that shows a panel below it. The panel opens and closes on click, and closes when
 * something in it is chosen (children call `close`), on a click outside, and on Escape.
 */
export function Dropdown({ trigger, label, triggerClassName, panelClassName, align = 'right', onOpen, children }: DropdownProps) {
  const { open, setOpen, rootRef, triggerRef, panelId } = useDisclosure<HTMLDivElement>();

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={triggerRef}
        type="button"
        aria-label={label}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => {
          if (!open) onOpen?.();
          setOpen(!open);
        }}
        className={cn(
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500',
          triggerClassName,
        )}
      >
        {trigger}
      </button>
      {open && (
        <div
          id={panelId}
          className={cn(
            'absolute top-full z-50 mt-2 origin-top rounded-xl border border-slate-200 bg-white shadow-lg ring-1 ring-black/5',
            'dark:border-slate-700 dark:bg-slate-900 dark:ring-white/5',
            align === 'right' ? 'right-0' : 'left-0',
            panelClassName,
          )}
        >
          {children({ close: () => setOpen(false) })}
        </div>
      )}
    </div>
  );
}

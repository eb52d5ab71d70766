import type { ReactNode } from 'react';
import { XIcon } from 'lucide-react';
import { useT } from '@/lib/i18n';

/** The dimmed page behind a modal; a click on it closes the modal. */
export function ModalBackdrop({ onClose }: { onClose: () => void }) {
  return <div aria-hidden="true" className="absolute inset-0 bg-slate-950/60 backdrop-blur-sm" onClick={onClose} />;
}

type ModalHeaderProps = {
  titleId: string;
  descriptionId: string;
  title: ReactNode;
  description?: ReactNode;
  onClose: () => void;
  /** Classes of the box around the title and description. */
  textClassName?: string;
};

/** A dialog's or sheet's title, its description and its Close button. */
export function ModalHeader({ titleId, descriptionId, title, description, onClose, textClassName }: ModalHeaderProps) {
  const { t } = useT();
  return (
    <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 py-4 dark:border-slate-800">
      <div className={textClassName}>
        <h2 id={titleId} className="text-lg font-semibold text-slate-900 dark:text-white">
          {title}
        </h2>
        {description && (
          <p id={descriptionId} className="mt-1 text-sm text-slate-500 dark:text-slate-400">
            {description}
          </p>
        )}
      </div>
      <button
        type="button"
        onClick={onClose}
        aria-label={t('close')}
        className="-mr-2 inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-lg text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-emerald-500 dark:hover:bg-slate-800 dark:hover:text-slate-200"
      >
        <XIcon className="h-5 w-5" />
      </button>
    </div>
  );
}

/** A modal's actions, at the end of its last row. */
export function ModalFooter({ children }: { children: ReactNode }) {
  return <div className="flex justify-end gap-2 border-t border-slate-200 px-5 py-4 dark:border-slate-800">{children}</div>;
}

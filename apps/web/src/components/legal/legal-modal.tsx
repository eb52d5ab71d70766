import type { ReactNode } from 'react';

import { Dialog } from '@/components/ui/dialog';

type LegalModalProps = { title: string; open: boolean; onClose: () => void; children: ReactNode };

/**
 * A legal text in the UI kit's dialog (focus in and back, Tab kept inside, Escape, backdrop, scroll lock).
 * The text itself is a tab stop so keyboard users can scroll it with the arrow keys: the dialog first
 * focuses its close button, which sits outside the scrolling area.
 */
export function LegalModal({ title, open, onClose, children }: LegalModalProps) {
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      <div
        tabIndex={0}
        className="rounded-sm leading-relaxed focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-emerald-500"
      >
        {children}
      </div>
    </Dialog>
  );
}

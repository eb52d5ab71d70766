import type { ReactNode } from 'react';
import { ArrowLeftIcon } from 'lucide-react';
import { PageHeader } from './page-header';
import { TextLink } from './text-link';

type ScreenProps = {
  /** The screen's h1, and the start of the browser tab's title. */
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  /** A way back to the screen this one belongs to, above the heading. */
  back?: { to: string; label: string };
  children: ReactNode;
};

/** A screen of the signed-in app: its tab title, its heading with explanation and actions, then its content. */
export function Screen({ title, description, actions, back, children }: ScreenProps) {
  const header = <PageHeader title={title} description={description} actions={actions} />;
  return (
    <div className="space-y-6">
      <title>{`${title} · Terrafund`}</title>
      {back ? (
        <div className="space-y-3">
          <TextLink to={back.to} className="inline-flex items-center gap-1.5 text-sm">
            <ArrowLeftIcon className="h-4 w-4" />
            {back.label}
          </TextLink>
          {header}
        </div>
      ) : (
        header
      )}
      {children}
    </div>
  );
}

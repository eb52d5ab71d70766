import { Link } from 'react-router';
import { projectImageSrc, type Project } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { ImageIcon, MapPinIcon } from 'lucide-react';
import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/cn';
import { useT } from '@/lib/i18n';
import { formatFigure, formatPercent, fundedPercent, projectTypeKey } from '../utils/project-figures';

/** The cover image at card size, or a neutral stand-in for a project without pictures. */
export function ProjectCover({ project, className }: { project: Pick<Project, 'title' | 'images'>; className?: string }) {
  const [cover] = project.images;
  return (
    <div className={cn('relative overflow-hidden bg-slate-100 dark:bg-slate-800', className)}>
      {cover ? (
        <img
          src={projectImageSrc(cover, 'card')}
          alt={project.title}
          loading="lazy"
          decoding="async"
          className="h-full w-full object-cover transition-transform duration-300 group-hover:scale-[1.03]"
        />
      ) : (
        <div className="flex h-full w-full items-center justify-center text-slate-400 dark:text-slate-600">
          <ImageIcon className="h-10 w-10" />
        </div>
      )}
    </div>
  );
}

type ProjectCardProps = {
  project: Project;
  /** The dashboard's smaller variant: a shorter picture and tighter spacing. */
  compact?: boolean;
  /** The level of the title's heading in the page around the card. */
  headingLevel?: 'h2' | 'h3';
};

/**
 * A project in the catalogue (docs/product.md §2.4 Public screens): its cover, type, title, location, target, ROI and how much
 * is funded. The whole card is clickable, but only the title is the link, so a screen reader hears the
 * title and not every figure as the link's name.
 */
export function ProjectCard({ project, compact = false, headingLevel: Heading = 'h3' }: ProjectCardProps) {
  const percent = fundedPercent(project);
  const { t } = useT('projects');
  return (
    <Card
      role="article"
      aria-labelledby={`project-${project._id}-title`}
      className="group relative flex h-full flex-col overflow-hidden transition hover:border-emerald-300 hover:shadow-md focus-within:ring-2 focus-within:ring-emerald-500 dark:hover:border-emerald-500/40"
    >
      <ProjectCover project={project} className={compact ? 'aspect-[16/9]' : 'aspect-[16/10]'} />
      <div className={cn('flex flex-1 flex-col', compact ? 'gap-3 p-4' : 'gap-4 p-5')}>
        <div className="min-w-0">
          <Badge tone="info">{t(projectTypeKey(project.type))}</Badge>
          <Heading
            id={`project-${project._id}-title`}
            className="mt-2 truncate text-base font-semibold text-slate-900 dark:text-white"
            title={project.title}
          >
            <Link
              to={paths.project.getHref(project._id)}
              // Block, and on a phone 44 px tall (issue 17): the link's own box is a finger's size too.
              className="block truncate rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500 max-sm:py-2.5 after:absolute after:inset-0 after:content-[''] hover:text-emerald-700 dark:hover:text-emerald-300"
            >
              {project.title}
            </Link>
          </Heading>
          <p className="mt-1 flex items-center gap-1.5 truncate text-sm text-slate-500 dark:text-slate-400">
            <MapPinIcon className="h-4 w-4 shrink-0" />
            <span className="truncate">{project.location}</span>
          </p>
        </div>

        <dl className="grid grid-cols-2 gap-3 text-sm">
          <div>
            <dt className="text-slate-500 dark:text-slate-400">{t('card.target')}</dt>
            <dd className="mt-0.5 font-semibold text-slate-900 tabular-nums dark:text-white">{formatFigure(project.target)}</dd>
          </div>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">{t('card.roi')}</dt>
            <dd className="mt-0.5 font-semibold text-emerald-600 tabular-nums dark:text-emerald-400">{formatPercent(project.roi)}</dd>
          </div>
        </dl>

        <div className="mt-auto">
          <div className="mb-1.5 flex items-baseline justify-between gap-2 text-sm">
            <span className="font-medium text-slate-700 dark:text-slate-200">{t('card.funded', { percent })}</span>
            <span className="truncate text-slate-500 tabular-nums dark:text-slate-400">
              {formatFigure(project.funded)} / {formatFigure(project.target)}
            </span>
          </div>
          <Progress value={percent} label={t('card.fundedLabel')} valueText={t('card.funded', { percent })} size={compact ? 'sm' : 'md'} />
        </div>
      </div>
    </Card>
  );
}

/** The shape of a card while the catalogue loads. */
export function ProjectCardSkeleton({ compact = false }: { compact?: boolean }) {
  return (
    <Card className="overflow-hidden" aria-hidden="true">
      <div className={cn('animate-pulse bg-slate-200 dark:bg-slate-800', compact ? 'aspect-[16/9]' : 'aspect-[16/10]')} />
      <div className={cn('flex animate-pulse flex-col', compact ? 'gap-3 p-4' : 'gap-4 p-5')}>
        <div className="h-5 w-20 rounded-full bg-slate-200 dark:bg-slate-800" />
        <div className="h-5 w-3/4 rounded bg-slate-200 dark:bg-slate-800" />
        <div className="h-4 w-1/2 rounded bg-slate-200 dark:bg-slate-800" />
        <div className="h-2.5 w-full rounded-full bg-slate-200 dark:bg-slate-800" />
      </div>
    </Card>
  );
}

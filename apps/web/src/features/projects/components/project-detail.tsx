import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import toast from 'react-hot-toast';
import { messages, type Project } from '@terrafund/contracts';
import { localizeMessage } from '@terrafund/contracts/i18n';
import { paths } from '@/config/paths';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadFailed } from '@/components/ui/load-state';
import { ArrowLeftIcon, BuildingIcon, ClockIcon, CoinsIcon, MapPinIcon, TrendingUpIcon } from 'lucide-react';
import { Spinner } from '@/components/ui/spinner';
import { TextLink } from '@/components/ui/text-link';
import { isApiError } from '@/lib/api-client';
import { useProject } from '../api/get-project';
import { i18n, useT } from '@/lib/i18n';
import { formatFigure, formatPercent, PROJECT_STATUS_TONES, projectStatusKey, projectTypeKey } from '../utils/project-figures';
import { InvestBox } from './invest-box';
import { ProjectGallery } from './project-gallery';
import { ProjectInfoTabs } from './project-info-tabs';

const m = messages.projects;

function BackToProjects({ className }: { className?: string }) {
  const { t } = useT('projects');
  return (
    <TextLink to={paths.projects.getHref()} className={`inline-flex items-center gap-1.5 text-sm ${className ?? ''}`}>
      <ArrowLeftIcon className="h-4 w-4" />
      {t('detail.back')}
    </TextLink>
  );
}

/** The way out of a project that cannot be shown: back to the catalogue, as a button. */
function BackToProjectsButton() {
  const { t } = useT('projects');
  return (
    <Link to={paths.projects.getHref()} className={buttonClasses()}>
      <ArrowLeftIcon className="h-4 w-4" />
      {t('detail.back')}
    </Link>
  );
}

/** Spec section 2: what a missing (or removed) project shows. */
export function ProjectNotFound() {
  const { say } = useT('projects');
  return (
    <Card>
      <title>{`${say(m.notFoundTitle)} · Terrafund`}</title>
      <EmptyState
        className="py-16"
        icon={<BuildingIcon className="h-5 w-5" />}
        title={<span className="text-lg">{say(m.notFoundTitle)}</span>}
        description={say(m.notFoundText)}
        action={<BackToProjectsButton />}
      />
    </Card>
  );
}

/**
 * One figure of the key-figures list. The card is the <div> that groups its <dt> and <dd> (the only
 * children a <dl> may have besides <dt>/<dd>); the icon sits in the term, drawn at the card's left.
 */
function KeyFigure({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <div className="relative min-w-0 rounded-xl border border-slate-200 bg-white p-3 sm:p-3.5 sm:pl-[3.75rem] dark:border-slate-800 dark:bg-slate-900/60">
      <dt className="text-xs break-words hyphens-auto text-slate-500 dark:text-slate-400">
        <span className="absolute top-1/2 left-3.5 hidden h-9 w-9 -translate-y-1/2 items-center justify-center rounded-lg bg-emerald-50 text-emerald-600 sm:flex dark:bg-emerald-500/10 dark:text-emerald-400">
          {icon}
        </span>
        {label}
      </dt>
      <dd className="font-semibold text-slate-900 tabular-nums dark:text-white">{children}</dd>
    </div>
  );
}

function ProjectView({ project }: { project: Project }) {
  const { t } = useT('projects');
  return (
    <div className="space-y-6">
      <title>{t('detail.documentTitle', { title: project.title })}</title>
      <BackToProjects />

      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <div className="flex flex-wrap gap-2">
            <Badge tone="info">{t(projectTypeKey(project.type))}</Badge>
            <Badge tone={PROJECT_STATUS_TONES[project.status]}>{t(projectStatusKey(project.status))}</Badge>
          </div>
          <h1 className="mt-3 text-2xl font-semibold tracking-tight break-words text-slate-900 sm:text-3xl dark:text-white">{project.title}</h1>
          <p className="mt-1.5 flex items-center gap-1.5 text-sm text-slate-500 sm:text-base dark:text-slate-400">
            <MapPinIcon className="h-4 w-4 shrink-0" />
            {project.location}
          </p>
        </div>
      </div>

      {/* On a phone the investment form comes right after the pictures and figures, before the long tabs;
          from lg up it is a column of its own beside both, staying in view. */}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <ProjectGallery title={project.title} images={project.images} />
          <dl aria-label={t('detail.keyFigures')} className="grid grid-cols-3 gap-3">
            <KeyFigure icon={<TrendingUpIcon className="h-5 w-5" />} label={t('detail.roi')}>
              {formatPercent(project.roi)}
            </KeyFigure>
            <KeyFigure icon={<ClockIcon className="h-5 w-5" />} label={t('detail.term')}>
              {t('detail.months', { term: project.term })}
            </KeyFigure>
            <KeyFigure icon={<CoinsIcon className="h-5 w-5" />} label={t('detail.minimum')}>
              {formatFigure(project.minInvestment)}
            </KeyFigure>
          </dl>
        </div>
        <div className="lg:sticky lg:top-24 lg:col-start-3 lg:row-span-2 lg:row-start-1 lg:self-start">
          <InvestBox project={project} />
        </div>
        <Card className="min-w-0 p-5 sm:p-6 lg:col-span-2">
          <ProjectInfoTabs project={project} />
        </Card>
      </div>
    </div>
  );
}

/** One project (docs/product.md §2.5 Member screens, Project detail): gallery, figures, the investment form and the tabs. */
export function ProjectDetail({ id }: { id: string }) {
  const project = useProject(id);
  const { t } = useT('projects');
  const { error } = project;
  const notFound = isApiError(error) && error.status === 404;
  // A 401 is the global handler's ("Session expired"), a 404 is answered in place, and a failed background
  // refresh keeps showing the project it already has.
  const failed = Boolean(error) && !notFound && !(isApiError(error) && error.status === 401) && !project.data;

  useEffect(() => {
    if (failed) toast.error(localizeMessage(i18n.t, m.loadFailed), { id: `error:${m.loadFailed}` });
  }, [failed, error]);

  if (project.data) return <ProjectView project={project.data} />;

  if (project.isPending) {
    return (
      <div className="flex justify-center py-24">
        <Spinner size="lg" label={t('detail.loading')} />
      </div>
    );
  }

  if (notFound) return <ProjectNotFound />;

  return (
    <Card>
      <title>{t('detail.unavailableTitle')}</title>
      <LoadFailed
        className="py-16"
        title={t('detail.unavailable')}
        description={t('detail.tryLater')}
        query={project}
        alternative={<BackToProjectsButton />}
      />
    </Card>
  );
}

import { useId, type ReactNode } from 'react';
import type { Project } from '@terrafund/contracts';
import { EmptyState } from '@/components/ui/empty-state';
import { CheckCircleIcon, ExternalLinkIcon, FileTextIcon } from 'lucide-react';
import { Tabs } from '@/components/ui/tabs';
import { formatDate } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { formatCount, formatFigure, formatPercent, paymentScheduleKey } from '../utils/project-figures';

function Facts({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section>
      <h3 className="text-sm font-semibold text-slate-900 dark:text-white">{title}</h3>
      <dl className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {children}
      </dl>
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4 px-4 py-2.5 text-sm">
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="text-right font-medium break-words text-slate-900 tabular-nums dark:text-white">{children}</dd>
    </div>
  );
}

function Overview({ project }: { project: Project }) {
  const { features } = project.details;
  const { t } = useT('projects');
  return (
    <div className="space-y-6">
      <p className="text-sm leading-relaxed whitespace-pre-line text-slate-600 dark:text-slate-300">{project.description}</p>
      <section>
        <h3 className="text-sm font-semibold text-slate-900 dark:text-white">{t('tabs.keyFeatures')}</h3>
        {features.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">{t('tabs.noFeatures')}</p>
        ) : (
          <ul className="mt-3 grid gap-2 sm:grid-cols-2">
            {features.map((feature, i) => (
              <li key={`${feature}-${i}`} className="flex items-start gap-2 text-sm text-slate-700 dark:text-slate-300">
                <CheckCircleIcon className="mt-0.5 h-4 w-4 shrink-0 text-emerald-500" />
                {feature}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function Details({ project }: { project: Project }) {
  const { details } = project;
  const { t } = useT('projects');
  const dateOrNotSet = (value: string | null) => (value ? formatDate(value) : t('tabs.notSet'));
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Facts title={t('tabs.propertyDetails')}>
        <Fact label={t('tabs.propertyType')}>{details.propertyType}</Fact>
        <Fact label={t('tabs.size')}>{details.size}</Fact>
        <Fact label={t('tabs.units')}>{formatCount(details.units)}</Fact>
        <Fact label={t('tabs.yearBuilt')}>{details.yearBuilt}</Fact>
        <Fact label={t('tabs.occupancy')}>{formatPercent(details.occupancyRate)}</Fact>
        <Fact label={t('tabs.schedule')}>{t(paymentScheduleKey(details.paymentSchedule))}</Fact>
      </Facts>
      <Facts title={t('tabs.investmentDetails')}>
        <Fact label={t('tabs.target')}>{formatFigure(project.target)}</Fact>
        <Fact label={t('tabs.funded')}>{formatFigure(project.funded)}</Fact>
        <Fact label={t('tabs.roi')}>{formatPercent(project.roi)}</Fact>
        <Fact label={t('tabs.term')}>{t('tabs.months', { term: project.term })}</Fact>
        <Fact label={t('tabs.minimum')}>{formatFigure(project.minInvestment)}</Fact>
        <Fact label={t('tabs.startDate')}>{dateOrNotSet(project.startDate)}</Fact>
        <Fact label={t('tabs.endDate')}>{dateOrNotSet(project.endDate)}</Fact>
      </Facts>
    </div>
  );
}

function Documents({ project }: { project: Project }) {
  const { documents } = project.details;
  const baseId = useId();
  const { t } = useT('projects');
  if (documents.length === 0) {
    return <EmptyState icon={<FileTextIcon className="h-5 w-5" />} title={t('tabs.noDocuments')} description={t('tabs.noDocumentsText')} />;
  }
  return (
    <>
      <span id={`${baseId}-new-tab`} hidden>
        {t('tabs.newTab')}
      </span>
      <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {documents.map((document, i) => {
          const nameId = `${baseId}-document-${i}`;
          return (
            <li key={`${document.url}-${i}`} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <span className="flex min-w-0 items-center gap-2.5 text-sm font-medium text-slate-900 dark:text-white">
                <FileTextIcon className="h-5 w-5 shrink-0 text-slate-400" />
                <span id={nameId} className="break-words">
                  {document.name}
                </span>
              </span>
              {/* noopener: the opened page gets no handle on this one; noreferrer: nor our address. The link
                  says which document it opens through its description, and that it opens a new tab. */}
              <a
                href={document.url}
                target="_blank"
                rel="noopener noreferrer"
                aria-describedby={`${nameId} ${baseId}-new-tab`}
                className="inline-flex items-center gap-1.5 rounded-sm text-sm font-medium text-emerald-600 hover:text-emerald-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500 dark:text-emerald-400 dark:hover:text-emerald-300"
              >
                {t('tabs.viewDocument')}
                <ExternalLinkIcon className="h-4 w-4" />
              </a>
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** Overview, Details and Documents (docs/product.md §2.5 Member screens, Project detail). */
export function ProjectInfoTabs({ project }: { project: Project }) {
  const { t } = useT('projects');
  return (
    <Tabs
      label={t('tabs.label')}
      items={[
        { id: 'overview', label: t('tabs.overview'), content: <Overview project={project} /> },
        { id: 'details', label: t('tabs.details'), content: <Details project={project} /> },
        { id: 'documents', label: t('tabs.documents'), content: <Documents project={project} /> },
      ]}
    />
  );
}

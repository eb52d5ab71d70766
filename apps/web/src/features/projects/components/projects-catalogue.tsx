import { PROJECT_STATUSES, PROJECT_TYPES } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { BuildingIcon, SearchIcon } from 'lucide-react';
import { SearchField } from '@/components/ui/search-field';
import { FilterSelect } from '@/components/ui/select';
import { cn } from '@/lib/cn';
import { useUrlFilters } from '@/lib/use-url-filters';
import { useProjects } from '../api/get-projects';
import { useLogError } from '@/lib/use-log-error';
import { useT } from '@/lib/i18n';
import { projectStatusKey, projectTypeKey } from '../utils/project-figures';
import { ProjectCard, ProjectCardSkeleton } from './project-card';


// grid-cols-1 (minmax(0, 1fr)) rather than the implicit column, so a long title truncates instead of widening the page.
const grid = 'grid grid-cols-1 gap-5 sm:grid-cols-2 xl:grid-cols-3';

/** The catalogue (docs/product.md §2.5 Member screens, Projects list): search and filters kept in the URL, and a grid of cards. */
export function ProjectsCatalogue() {
  const filters = useUrlFilters({ filters: { type: PROJECT_TYPES, status: PROJECT_STATUSES } });
  const projects = useProjects(filters.applied);
  useLogError(projects.error, 'projects');
  const { t } = useT('projects');
  const typeOptions = [{ value: '', label: t('catalogue.allTypes') }, ...PROJECT_TYPES.map((type) => ({ value: type, label: t(projectTypeKey(type)) }))];
  const statusOptions = [
    { value: '', label: t('catalogue.allStatuses') },
    ...PROJECT_STATUSES.map((status) => ({ value: status, label: t(projectStatusKey(status)) })),
  ];

  const list = projects.data ?? [];
  const count = list.length;

  return (
    <div className="space-y-6">
      <Card className="grid gap-3 p-4 sm:grid-cols-[1fr_auto_auto] sm:p-5">
        <SearchField id="projects-search" label={t('catalogue.searchLabel')} placeholder={t('catalogue.searchPlaceholder')} maxLength={100} {...filters.searchField} />
        <div className="grid grid-cols-2 gap-3 sm:contents">
          <FilterSelect id="projects-type" label={t('catalogue.typeFilter')} options={typeOptions} className="sm:w-44" {...filters.filterField('type')} />
          <FilterSelect id="projects-status" label={t('catalogue.statusFilter')} options={statusOptions} className="sm:w-44" {...filters.filterField('status')} />
        </div>
      </Card>

      {projects.isPending ? (
        <div role="status" aria-label={t('catalogue.loading')} className={grid}>
          {Array.from({ length: 6 }, (_, i) => (
            <ProjectCardSkeleton key={i} />
          ))}
        </div>
      ) : projects.isError ? (
        // The failure is only logged (docs/product.md §2.5 Member screens); the screen still offers a way forward.
        <Card>
          <EmptyState
            icon={<BuildingIcon className="h-5 w-5" />}
            title={t('catalogue.unavailable')}
            action={
              <Button variant="outline" onClick={() => void projects.refetch()} isLoading={projects.isFetching}>
                {t('catalogue.retry')}
              </Button>
            }
          />
        </Card>
      ) : count === 0 ? (
        <Card>
          <EmptyState
            icon={<SearchIcon className="h-5 w-5" />}
            title={t('catalogue.empty')}
            description={filters.active ? t('catalogue.noMatch') : t('catalogue.comingSoon')}
            action={filters.active && <Button onClick={filters.clear}>{t('catalogue.clear')}</Button>}
          />
        </Card>
      ) : (
        <section aria-label={t('catalogue.label')} aria-busy={projects.isFetching || undefined}>
          <p className="sr-only" aria-live="polite">
            {t('catalogue.found', { count })}
          </p>
          <ul className={cn(grid, 'transition-opacity', projects.isPlaceholderData && 'opacity-60')}>
            {list.map((project) => (
              <li key={project._id}>
                <ProjectCard project={project} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

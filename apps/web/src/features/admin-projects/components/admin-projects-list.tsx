import { useState } from 'react';
import { PROJECT_STATUSES, type Project } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ListCount, ListHeading, ListToolbar } from '@/components/ui/list-parts';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadFailed, LoadingBlock } from '@/components/ui/load-state';
import { BuildingIcon, SearchIcon } from 'lucide-react';
import { SearchField } from '@/components/ui/search-field';
import { FilterSelect } from '@/components/ui/select';
import { cn } from '@/lib/cn';
import { useUrlFilters } from '@/lib/use-url-filters';
import { useAdminProjects } from '../api/get-projects';
import { useT } from '@/lib/i18n';
import { statusLabel } from '../utils/labels';
import { DeleteProjectDialog } from './delete-project-dialog';
import { ProjectsTable } from './projects-table';

/** /admin/projects (docs/product.md §6 Projects and investing): every project, searched and filtered, with edit and delete. */
export function AdminProjectsList() {
  const filters = useUrlFilters({ filters: { status: PROJECT_STATUSES } });
  const projects = useAdminProjects(filters.applied);
  const [toDelete, setToDelete] = useState<Project | null>(null);
  const rows = projects.data ?? [];
  const { t } = useT('admin');
  const statusOptions = [{ value: '', label: t('projects.list.allStatus') }, ...PROJECT_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))];

  return (
    <Card className="overflow-hidden">
      <ListToolbar row>
        <SearchField
          id="admin-projects-search"
          label={t('projects.list.searchLabel')}
          placeholder={t('projects.list.searchPlaceholder')}
          maxLength={100}
          wrapperClassName="flex-1"
          {...filters.searchField}
        />
        <FilterSelect
          id="admin-projects-status"
          label={t('projects.list.statusFilter')}
          options={statusOptions}
          wrapperClassName="sm:w-48"
          {...filters.filterField('status')}
        />
      </ListToolbar>

      <ListHeading title={t('projects.list.title')}>
        {projects.data && (
          <ListCount live>
            {t('projects.list.count', { count: rows.length })}
          </ListCount>
        )}
      </ListHeading>

      {projects.isPending ? (
        <LoadingBlock label={t('projects.list.loading')} />
      ) : projects.isError ? (
        // The global handler has toasted the failure; this offers the way forward.
        <LoadFailed
          title={t('projects.list.failed')}
          query={projects}
        />
      ) : rows.length === 0 ? (
        <EmptyState
          icon={filters.active ? <SearchIcon className="h-5 w-5" /> : <BuildingIcon className="h-5 w-5" />}
          title={t('projects.list.emptyTitle')}
          description={filters.active ? t('projects.list.emptyFiltered') : t('projects.list.emptyDescription')}
          action={filters.active && <Button onClick={filters.clear}>{t('projects.list.clearFilters')}</Button>}
        />
      ) : (
        <div aria-busy={projects.isFetching || undefined} className={cn('mt-3 transition-opacity', projects.isPlaceholderData && 'opacity-60')}>
          <ProjectsTable projects={rows} onDelete={setToDelete} />
        </div>
      )}

      <DeleteProjectDialog project={toDelete} onClose={() => setToDelete(null)} />
    </Card>
  );
}

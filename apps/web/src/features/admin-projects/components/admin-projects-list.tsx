import { useState } from 'react';
import { PROJECT_STATUSES, type Project } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ListCount, ListHeading, ListToolbar } from '@/components/ui/list-parts';
import { EmptyState } from '@/components/ui/empty-state';
import { ListBody, ListRows } from '@/components/ui/list-body';
import { BuildingIcon, SearchIcon } from 'lucide-react';
import { SearchField } from '@/components/ui/search-field';
import { FilterSelect } from '@/components/ui/select';
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

      {/* On failure the global handler has toasted it; the list offers the way forward. */}
      <ListBody
        query={projects}
        failed={projects.isError}
        loadingLabel={t('projects.list.loading')}
        failedTitle={t('projects.list.failed')}
        isEmpty={rows.length === 0}
        empty={
          <EmptyState
            icon={filters.active ? <SearchIcon className="h-5 w-5" /> : <BuildingIcon className="h-5 w-5" />}
            title={t('projects.list.emptyTitle')}
            description={filters.active ? t('projects.list.emptyFiltered') : t('projects.list.emptyDescription')}
            action={filters.active && <Button onClick={filters.clear}>{t('projects.list.clearFilters')}</Button>}
          />
        }
      >
        <ListRows busy={projects.isFetching} stale={projects.isPlaceholderData}>
          <ProjectsTable projects={rows} onDelete={setToDelete} />
        </ListRows>
      </ListBody>

      <DeleteProjectDialog project={toDelete} onClose={() => setToDelete(null)} />
    </Card>
  );
}

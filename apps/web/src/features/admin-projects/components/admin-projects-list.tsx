import { useState } from 'react';
import { PROJECT_STATUSES, type Project, type ProjectStatus } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadFailed, LoadingBlock } from '@/components/ui/load-state';
import { BuildingIcon, SearchIcon } from 'lucide-react';
import { SearchField } from '@/components/ui/search-field';
import { Select } from '@/components/ui/select';
import { cn } from '@/lib/cn';
import { useUrlFilters } from '@/lib/use-url-filters';
import { useAdminProjects } from '../api/get-projects';
import { STATUS_LABELS } from '../utils/labels';
import { DeleteProjectDialog } from './delete-project-dialog';
import { ProjectsTable } from './projects-table';

const statusOptions = [{ value: '', label: 'All Status' }, ...PROJECT_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))];

/** /admin/projects (docs/product.md §6 Projects and investing): every project, searched and filtered, with edit and delete. */
export function AdminProjectsList() {
  const filters = useUrlFilters({ filters: { status: PROJECT_STATUSES } });
  const projects = useAdminProjects(filters.applied);
  const [toDelete, setToDelete] = useState<Project | null>(null);
  const rows = projects.data ?? [];

  return (
    <Card className="overflow-hidden">
      <div className="flex flex-col gap-3 border-b border-slate-200 p-4 sm:flex-row sm:items-center sm:p-5 dark:border-slate-800">
        <SearchField
          id="admin-projects-search"
          label="Search projects"
          value={filters.value}
          onValueChange={filters.onSearchChange}
          placeholder="Search projects..."
          maxLength={100}
          wrapperClassName="flex-1"
        />
        <div className="sm:w-48">
          <label htmlFor="admin-projects-status" className="sr-only">
            Filter by status
          </label>
          <Select
            id="admin-projects-status"
            options={statusOptions}
            value={filters.applied.status}
            onChange={(event) => filters.setFilter('status', event.target.value as ProjectStatus | '')}
          />
        </div>
      </div>

      <div className="flex items-center justify-between gap-3 px-4 pt-4 sm:px-5">
        <h2 className="font-semibold text-slate-900 dark:text-white">All projects</h2>
        {projects.data && (
          <p className="text-sm text-slate-500 dark:text-slate-400" aria-live="polite">
            {rows.length} {rows.length === 1 ? 'project' : 'projects'}
          </p>
        )}
      </div>

      {projects.isPending ? (
        <LoadingBlock label="Loading projects" />
      ) : projects.isError ? (
        // The global handler has toasted the failure; this offers the way forward.
        <LoadFailed
          title="Projects could not be loaded"
          query={projects}
        />
      ) : rows.length === 0 ? (
        <EmptyState
          icon={filters.active ? <SearchIcon className="h-5 w-5" /> : <BuildingIcon className="h-5 w-5" />}
          title="No projects found"
          description={filters.active ? 'No project matches these filters.' : 'Add the first project members can invest in with Add Project.'}
          action={filters.active && <Button onClick={filters.clear}>Clear filters</Button>}
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

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
      <ListToolbar row>
        <SearchField
          id="admin-projects-search"
          label="Search projects"
          placeholder="Search projects..."
          maxLength={100}
          wrapperClassName="flex-1"
          {...filters.searchField}
        />
        <FilterSelect
          id="admin-projects-status"
          label="Filter by status"
          options={statusOptions}
          wrapperClassName="sm:w-48"
          {...filters.filterField('status')}
        />
      </ListToolbar>

      <ListHeading title="All projects">
        {projects.data && (
          <ListCount live>
            {rows.length} {rows.length === 1 ? 'project' : 'projects'}
          </ListCount>
        )}
      </ListHeading>

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

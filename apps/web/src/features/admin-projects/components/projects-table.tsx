import { TitleLines } from '@/components/ui/title-lines';
import { Link } from 'react-router';
import { projectImageSrc, type Project } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { ImageIcon, PencilIcon, TrashIcon } from 'lucide-react';
import { Progress } from '@/components/ui/progress';
import { StackingTable } from '@/components/ui/stacking-table';
import { cn } from '@/lib/cn';
import { formatUsd } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { statusLabel, STATUS_TONES, typeLabel } from '../utils/labels';

// Below xl (where the sidebar leaves too little room for the columns) each row is a card.
const td = 'xl:table-cell xl:px-4 xl:py-3 xl:align-middle';

function Cover({ project }: { project: Project }) {
  const [cover] = project.images;
  return (
    <span className="flex h-12 w-16 shrink-0 items-center justify-center overflow-hidden rounded-lg bg-slate-100 text-slate-400 dark:bg-slate-800 dark:text-slate-500">
      {cover ? <img src={projectImageSrc(cover, 'thumb')} alt="" loading="lazy" className="h-full w-full object-cover" /> : <ImageIcon className="h-5 w-5" />}
    </span>
  );
}

function ProjectRow({ project, onDelete }: { project: Project; onDelete: (project: Project) => void }) {
  const { t } = useT('admin');
  const percent = project.target > 0 ? Math.min(100, Math.floor((project.funded / project.target) * 100)) : 0;
  return (
    <tr className="relative flex flex-wrap items-center gap-2 px-4 py-4 sm:px-5 xl:table-row xl:p-0">
      <td className={cn(td, 'mb-1 w-full min-w-0 pr-24 xl:mb-0 xl:w-auto xl:pr-4')}>
        <div className="flex min-w-0 items-center gap-3 xl:max-w-80">
          <Cover project={project} />
          <TitleLines title={project.title} detail={project.location} />
        </div>
      </td>
      <td className={td}>
        <Badge tone="info">{typeLabel(project.type)}</Badge>
      </td>
      <td className={td}>
        <Badge tone={STATUS_TONES[project.status]}>{statusLabel(project.status)}</Badge>
      </td>
      <td className={cn(td, 'w-full xl:w-56')}>
        <p className="text-slate-700 tabular-nums dark:text-slate-200">
          {formatUsd(project.funded, 0)} / {formatUsd(project.target, 0)}
        </p>
        <Progress value={percent} label={t('projects.table.fundedLabel', { title: project.title })} valueText={t('projects.table.fundedValue', { percent })} size="sm" className="mt-1.5 max-w-56" />
      </td>
      {/* On a card the actions sit at the top right, beside the title. */}
      <td className={cn(td, 'absolute top-4 right-4 sm:right-5 xl:static xl:text-right')}>
        <div className="flex items-center justify-end gap-1.5">
          <Link
            to={paths.adminProjectEdit.getHref(project._id)}
            aria-label={t('projects.table.editLabel', { title: project.title })}
            title={t('projects.table.edit')}
            className={buttonClasses({ variant: 'outline', size: 'icon', className: 'h-9 w-9' })}
          >
            <PencilIcon className="h-4 w-4" />
          </Link>
          <Button
            variant="ghost"
            size="icon"
            className="h-9 w-9 text-rose-600 hover:text-rose-700 dark:text-rose-400 dark:hover:text-rose-300"
            onClick={() => onDelete(project)}
            aria-label={t('projects.table.deleteLabel', { title: project.title })}
            title={t('projects.table.delete')}
          >
            <TrashIcon className="h-4 w-4" />
          </Button>
        </div>
      </td>
    </tr>
  );
}

/** The projects: from xl up a table; below it each row stacks into a card, so nothing scrolls sideways on a phone. */
export function ProjectsTable({ projects, onDelete }: { projects: Project[]; onDelete: (project: Project) => void }) {
  const { t } = useT('admin');
  const columns = [t('projects.table.project'), t('projects.table.type'), t('projects.table.status'), t('projects.table.funded'), t('projects.table.actions')];
  return (
    <StackingTable caption={t('projects.table.caption')} columns={columns} actions from="xl">
      {projects.map((project) => (
        <ProjectRow key={project._id} project={project} onDelete={onDelete} />
      ))}
    </StackingTable>
  );
}

import toast from 'react-hot-toast';
import { messages, type Project } from '@terrafund/contracts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { AlertTriangleIcon } from 'lucide-react';
import { errorMessage } from '@/lib/api-client';
import { useT } from '@/lib/i18n';
import { useDeleteProject } from '../api/delete-project';

type DeleteProjectDialogProps = { project: Project | null; onClose: () => void };

/**
 * Asks before deleting. A refusal (409: members have invested in it) is shown here, beside the project it
 * is about, and the dialog stays open so the admin reads why.
 */
export function DeleteProjectDialog({ project, onClose }: DeleteProjectDialogProps) {
  const remove = useDeleteProject();
  const { t, say } = useT('admin');

  // ConfirmDialog does not close while the deletion runs.
  const close = () => {
    remove.reset();
    onClose();
  };

  const confirm = () => {
    if (!project) return;
    remove.mutate(project._id, {
      onSuccess: () => {
        toast.success(say(messages.projects.deleted));
        remove.reset();
        onClose();
      },
    });
  };

  return (
    <ConfirmDialog
      open={project !== null}
      onClose={close}
      title={t('projects.delete.title')}
      description={project ? t('projects.delete.description', { title: project.title }) : undefined}
      keepLabel={t('projects.delete.cancel')}
      confirmLabel={t('projects.delete.confirm')}
      onConfirm={confirm}
      isPending={remove.isPending}
    >
      {remove.isError && (
        <p role="alert" className="flex items-start gap-2 rounded-lg bg-rose-50 p-3 text-sm text-rose-800 dark:bg-rose-500/10 dark:text-rose-200">
          <AlertTriangleIcon className="mt-0.5 h-4 w-4 shrink-0" />
          {say(errorMessage(remove.error, messages.projects.deleteFailed))}
        </p>
      )}
    </ConfirmDialog>
  );
}

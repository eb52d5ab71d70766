import toast from 'react-hot-toast';
import { messages, type Project } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
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

  const close = () => {
    if (remove.isPending) return;
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
    <Dialog
      open={project !== null}
      onClose={close}
      title={t('projects.delete.title')}
      description={project ? t('projects.delete.description', { title: project.title }) : undefined}
      footer={
        <>
          <Button variant="ghost" onClick={close} disabled={remove.isPending}>
            {t('projects.delete.cancel')}
          </Button>
          <Button variant="danger" onClick={confirm} isLoading={remove.isPending}>
            {t('projects.delete.confirm')}
          </Button>
        </>
      }
    >
      {remove.isError && (
        <p role="alert" className="flex items-start gap-2 rounded-lg bg-rose-50 p-3 text-sm text-rose-800 dark:bg-rose-500/10 dark:text-rose-200">
          <AlertTriangleIcon className="mt-0.5 h-4 w-4 shrink-0" />
          {say(errorMessage(remove.error, messages.projects.deleteFailed))}
        </p>
      )}
    </Dialog>
  );
}

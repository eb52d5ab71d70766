import { useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { messages } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { useCreateProject } from '../api/create-project';
import { emptyProjectForm } from '../utils/project-form';
import { useT } from '@/lib/i18n';
import { ProjectForm } from './project-form';

/** /admin/projects/add: a new project, saved through the API, then back to the list (docs/product.md §2.5 Member screens). */
export function AddProject() {
  const create = useCreateProject();
  const navigate = useNavigate();
  const { t, say } = useT('admin');
  return (
    <ProjectForm
      defaultValues={emptyProjectForm}
      submitLabel={t('projects.form.create')}
      onSubmit={async (values) => {
        await create.mutateAsync(values);
        toast.success(say(messages.projects.created));
        await navigate(paths.adminProjects.getHref());
      }}
    />
  );
}

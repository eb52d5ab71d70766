import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { messages, type Project } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadFailed } from '@/components/ui/load-state';
import { ArrowLeftIcon, BuildingIcon } from 'lucide-react';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';
import { useProject } from '../api/get-project';
import { useUpdateProject } from '../api/update-project';
import { changedFields, formValuesOf } from '../utils/project-form';
import { useT } from '@/lib/i18n';
import { ProjectForm } from './project-form';

const m = messages.projects;

function BackToProjectsButton() {
  const { t } = useT('admin');
  return (
    <Link to={paths.adminProjects.getHref()} className={buttonClasses()}>
      <ArrowLeftIcon className="h-4 w-4" />
      {t('projects.edit.back')}
    </Link>
  );
}

function EditForm({ project }: { project: Project }) {
  const update = useUpdateProject();
  const navigate = useNavigate();
  const { t, say } = useT('admin');
  // What the form started from: the PATCH carries what the admin changed since, even if the project is refetched meanwhile.
  const [stored] = useState(() => formValuesOf(project));
  return (
    <ProjectForm
      defaultValues={stored}
      submitLabel={t('projects.form.save')}
      onSubmit={async (values) => {
        await update.mutateAsync({ id: project._id, body: changedFields(stored, values) });
        toast.success(say(m.updated));
        await navigate(paths.adminProjects.getHref());
      }}
    />
  );
}

/** /admin/projects/edit?id=…: the stored project, loaded from the API, in the same form as a new one. */
export function EditProject({ id }: { id: string }) {
  const project = useProject(id, { enabled: id !== '' });
  const { t, say } = useT('admin');
  // The project the form was opened with. It waits for the server's copy even when the catalogue cached one
  // (the form starts from what is stored now), and stays once shown: a failed background refresh must not
  // take the form, and what was typed in it, away.
  const [loaded, setLoaded] = useState<Project | null>(null);
  if (!loaded && project.isSuccess && project.isFetchedAfterMount) setLoaded(project.data);

  const { error } = project;
  const notFound = id === '' || (!loaded && isApiError(error) && error.status === 404);
  const failed = !loaded && !notFound && Boolean(error) && !(isApiError(error) && error.status === 401);

  const loadFailed = say(m.loadFailed);
  useEffect(() => {
    if (failed) toast.error(loadFailed, { id: `error:${m.loadFailed}` });
  }, [failed, error, loadFailed]);

  if (loaded) return <EditForm project={loaded} />;

  if (notFound) {
    return (
      <Card>
        <EmptyState
          className="py-16"
          icon={<BuildingIcon className="h-5 w-5" />}
          title={say(m.notFoundTitle)}
          description={say(m.notFoundText)}
          action={<BackToProjectsButton />}
        />
      </Card>
    );
  }

  if (failed) {
    return (
      <Card>
        <LoadFailed
          className="py-16"
          title={t('projects.edit.unavailableTitle')}
          description={t('projects.edit.unavailableDescription')}
          query={project}
          alternative={<BackToProjectsButton />}
        />
      </Card>
    );
  }

  return (
    <div className="flex justify-center py-24">
      <Spinner size="lg" label={t('projects.edit.loading')} />
    </div>
  );
}

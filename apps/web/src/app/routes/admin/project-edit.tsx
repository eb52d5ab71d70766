import { useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { ArrowLeftIcon } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { TextLink } from '@/components/ui/text-link';
import { EditProject } from '@/features/admin-projects/components/edit-project';

export default function AdminProjectEditRoute() {
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() ?? '';
  return (
    <div className="space-y-6">
      <title>Edit Project · Terrafund</title>
      <div className="space-y-3">
        <TextLink to={paths.adminProjects.getHref()} className="inline-flex items-center gap-1.5 text-sm">
          <ArrowLeftIcon className="h-4 w-4" />
          Back to Projects
        </TextLink>
        <PageHeader title="Edit Project" description="Changes show to members as soon as they are saved." />
      </div>
      {/* Keyed by the project, so opening another one starts from its own stored values. */}
      <EditProject key={id} id={id} />
    </div>
  );
}

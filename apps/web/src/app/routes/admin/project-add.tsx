import { paths } from '@/config/paths';
import { ArrowLeftIcon } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { TextLink } from '@/components/ui/text-link';
import { AddProject } from '@/features/admin-projects/components/add-project';

export default function AdminProjectAddRoute() {
  return (
    <div className="space-y-6">
      <title>Add Project · Terrafund</title>
      <div className="space-y-3">
        <TextLink to={paths.adminProjects.getHref()} className="inline-flex items-center gap-1.5 text-sm">
          <ArrowLeftIcon className="h-4 w-4" />
          Back to Projects
        </TextLink>
        <PageHeader title="Add Project" description="Publish a new real-estate project for members to invest in." />
      </div>
      <AddProject />
    </div>
  );
}

import { PageHeader } from '@/components/ui/page-header';
import { ProjectsCatalogue } from '@/features/projects/components/projects-catalogue';

export default function ProjectsRoute() {
  return (
    <div className="space-y-6">
      <title>Projects · Terrafund</title>
      <PageHeader title="Projects" description="Residential, commercial and land projects open for investment." />
      <ProjectsCatalogue />
    </div>
  );
}

import { Screen } from '@/components/ui/screen';
import { ProjectsCatalogue } from '@/features/projects/components/projects-catalogue';

export default function ProjectsRoute() {
  return (
    <Screen title="Projects" description="Residential, commercial and land projects open for investment.">
      <ProjectsCatalogue />
    </Screen>
  );
}

import { paths } from '@/config/paths';
import { Screen } from '@/components/ui/screen';
import { AddProject } from '@/features/admin-projects/components/add-project';

export default function AdminProjectAddRoute() {
  return (
    <Screen
      title="Add Project"
      description="Publish a new real-estate project for members to invest in."
      back={{ to: paths.adminProjects.getHref(), label: 'Back to Projects' }}
    >
      <AddProject />
    </Screen>
  );
}

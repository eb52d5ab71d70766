import { useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { Screen } from '@/components/ui/screen';
import { EditProject } from '@/features/admin-projects/components/edit-project';

export default function AdminProjectEditRoute() {
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() ?? '';
  return (
    <Screen
      title="Edit Project"
      description="Changes show to members as soon as they are saved."
      back={{ to: paths.adminProjects.getHref(), label: 'Back to Projects' }}
    >
      {/* Keyed by the project, so opening another one starts from its own stored values. */}
      <EditProject key={id} id={id} />
    </Screen>
  );
}

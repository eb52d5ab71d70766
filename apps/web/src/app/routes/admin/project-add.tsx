import { paths } from '@/config/paths';
import { Screen } from '@/components/ui/screen';
import { useT } from '@/lib/i18n';
import { AddProject } from '@/features/admin-projects/components/add-project';

export default function AdminProjectAddRoute() {
  const { t } = useT('admin');
  return (
    <Screen
      title={t('screens.projectAdd.title')}
      description={t('screens.projectAdd.description')}
      back={{ to: paths.adminProjects.getHref(), label: 'Back to Projects' }}
    >
      <AddProject />
    </Screen>
  );
}

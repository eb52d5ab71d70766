import { useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { Screen } from '@/components/ui/screen';
import { useT } from '@/lib/i18n';
import { EditProject } from '@/features/admin-projects/components/edit-project';

export default function AdminProjectEditRoute() {
  const { t } = useT('admin');
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() ?? '';
  return (
    <Screen
      title={t('screens.projectEdit.title')}
      description={t('screens.projectEdit.description')}
      back={{ to: paths.adminProjects.getHref(), label: t('screens.projectEdit.back') }}
    >
      {/* Keyed by the project, so opening another one starts from its own stored values. */}
      <EditProject key={id} id={id} />
    </Screen>
  );
}

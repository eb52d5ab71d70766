import { Screen } from '@/components/ui/screen';
import { useT } from '@/lib/i18n';
import { ProjectsCatalogue } from '@/features/projects/components/projects-catalogue';

export default function ProjectsRoute() {
  const { t } = useT('projects');
  return (
    <Screen title={t('screen.title')} description={t('screen.description')}>
      <ProjectsCatalogue />
    </Screen>
  );
}

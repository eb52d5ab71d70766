import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { buttonClasses } from '@/components/ui/button';
import { PlusIcon } from 'lucide-react';
import { Screen } from '@/components/ui/screen';
import { useT } from '@/lib/i18n';
import { AdminProjectsList } from '@/features/admin-projects/components/admin-projects-list';

export default function AdminProjectsRoute() {
  const { t } = useT('admin');
  return (
    <Screen
      title={t('screens.projects.title')}
      description={t('screens.projects.description')}
      actions={
        <Link to={paths.adminProjectAdd.getHref()} className={buttonClasses()}>
          <PlusIcon className="h-4 w-4" />
          {t('screens.projects.add')}
        </Link>
      }
    >
      <AdminProjectsList />
    </Screen>
  );
}

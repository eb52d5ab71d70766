import { Screen } from '@/components/ui/screen';
import { useT } from '@/lib/i18n';
import { UsersList } from '@/features/admin-users/components/users-list';

export default function AdminUsersRoute() {
  const { t } = useT('admin');
  return (
    <Screen title={t('screens.users.title')} description={t('screens.users.description')}>
      <UsersList />
    </Screen>
  );
}

import { Screen } from '@/components/ui/screen';
import { UsersList } from '@/features/admin-users/components/users-list';

export default function AdminUsersRoute() {
  return (
    <Screen title="Manage Users" description="Every member, their KYC status and their details.">
      <UsersList />
    </Screen>
  );
}

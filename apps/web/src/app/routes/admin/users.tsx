import { PageHeader } from '@/components/ui/page-header';
import { UsersList } from '@/features/admin-users/components/users-list';

export default function AdminUsersRoute() {
  return (
    <div className="space-y-6">
      <title>Manage Users · Terrafund</title>
      <PageHeader title="Manage Users" description="Every member, their KYC status and their details." />
      <UsersList />
    </div>
  );
}

import { useParams } from 'react-router';
import { UserDetail } from '@/features/admin-users/components/user-detail';

export default function AdminUserRoute() {
  const { userId = '' } = useParams();
  // Keyed by the user, so moving to another user starts from a clean screen (dialogs closed, nothing half done).
  return <UserDetail key={userId} userId={userId} />;
}

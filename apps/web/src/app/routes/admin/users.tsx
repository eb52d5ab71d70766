import { UsersList } from '@/features/admin-users/components/users-list';
import { titledScreen } from '../titled-screen';

export default titledScreen('admin', 'screens.users', UsersList);

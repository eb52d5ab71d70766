import { AdminDashboard } from '@/features/admin-dashboard/components/admin-dashboard';
import { titledScreen } from '../titled-screen';

export default titledScreen('admin', 'screens.dashboard', AdminDashboard);

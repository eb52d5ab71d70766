import { paths } from '@/config/paths';
import { AddProject } from '@/features/admin-projects/components/add-project';
import { titledScreen } from '../titled-screen';

export default titledScreen('admin', 'screens.projectAdd', AddProject, {
  back: { to: paths.adminProjects.getHref(), label: 'screens.projectAdd.back' },
});

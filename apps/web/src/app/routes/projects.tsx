import { ProjectsCatalogue } from '@/features/projects/components/projects-catalogue';
import { titledScreen } from './titled-screen';

export default titledScreen('projects', 'screen', ProjectsCatalogue);

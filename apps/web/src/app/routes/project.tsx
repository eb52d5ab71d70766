import { useParams } from 'react-router';
import { ProjectDetail } from '@/features/projects/components/project-detail';

export default function ProjectRoute() {
  const { id = '' } = useParams();
  // Keyed by the project, so moving to another one starts clean (first picture, minimum amount, first tab).
  return <ProjectDetail key={id} id={id} />;
}

import { ComingSoon } from '@/components/ui/coming-soon';

export default function ProjectsRoute() {
  return <ComingSoon title="Projects" description="Real-estate projects open for investment." />;
}

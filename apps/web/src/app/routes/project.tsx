import { ComingSoon } from '@/components/ui/coming-soon';

export default function ProjectRoute() {
  return <ComingSoon title="Project details" description="Everything about one project, and how to invest in it." />;
}

import { ComingSoon } from '@/components/ui/coming-soon';

export default function AdminProjectsRoute() {
  return <ComingSoon title="Manage Projects" description="Every project, with edit and delete." />;
}

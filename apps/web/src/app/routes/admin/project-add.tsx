import { ComingSoon } from '@/components/ui/coming-soon';

export default function AdminProjectAddRoute() {
  return <ComingSoon title="Add Project" description="Publish a new real-estate project." />;
}

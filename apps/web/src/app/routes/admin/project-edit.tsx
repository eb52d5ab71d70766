import { ComingSoon } from '@/components/ui/coming-soon';

export default function AdminProjectEditRoute() {
  return <ComingSoon title="Edit Project" description="Change a published project." />;
}

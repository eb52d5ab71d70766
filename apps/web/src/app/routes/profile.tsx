import { ComingSoon } from '@/components/ui/coming-soon';

export default function ProfileRoute() {
  return <ComingSoon title="Profile" description="Your personal information, password and account status." />;
}

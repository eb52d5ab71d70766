import { KycPage } from '@/features/kyc/components/kyc-page';

export default function KycRoute() {
  return <KycPage />;
}

import { useSearchParams } from 'react-router';
import { WithdrawalConfirmation } from '@/features/wallet/components/withdrawal-confirmation';

export default function WithdrawalConfirmRoute() {
  const [searchParams] = useSearchParams();
  return <WithdrawalConfirmation token={searchParams.get('token')} />;
}

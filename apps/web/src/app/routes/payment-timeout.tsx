import { PaymentResult } from '@/features/wallet/components/payment-result';

export default function PaymentTimeoutRoute() {
  return <PaymentResult outcome="timeout" />;
}

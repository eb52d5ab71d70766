import { PaymentResult } from '@/features/wallet/components/payment-result';

export default function PaymentSuccessRoute() {
  return <PaymentResult outcome="success" />;
}

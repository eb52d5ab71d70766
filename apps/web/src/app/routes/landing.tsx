import { LandingPage } from '@/features/landing/components/landing-page';
import { usePublicConfig } from '@/lib/public-config';

/** The footer's contact details come from the server's CONTACT_EMAIL and CONTACT_PHONE. */
export default function LandingRoute() {
  const { data } = usePublicConfig();
  return <LandingPage contactEmail={data?.contactEmail} contactPhone={data?.contactPhone} />;
}

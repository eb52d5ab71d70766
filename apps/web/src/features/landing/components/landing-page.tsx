import { SECTION_IDS } from '../sections';
import { About } from './about';
import { Approach } from './approach';
import { Features } from './features';
import { Hero } from './hero';
import { LandingFooter } from './landing-footer';
import { LandingHeader } from './landing-header';
import { Plans } from './plans';

const FALLBACK_CONTACT_EMAIL = 'support@terrafund.example';
const FALLBACK_CONTACT_PHONE = '+1 (201) 555-0134';

type LandingPageProps = {
  /** Defaults to VITE_CONTACT_EMAIL, then a placeholder. */
  contactEmail?: string;
  /** Defaults to VITE_CONTACT_PHONE, then a placeholder. */
  contactPhone?: string;
};

/** The public page at / (docs/product.md §2.1 Route table, "Landing page"). */
export function LandingPage({ contactEmail, contactPhone }: LandingPageProps) {
  const email = contactEmail || import.meta.env.VITE_CONTACT_EMAIL || FALLBACK_CONTACT_EMAIL;
  const phone = contactPhone || import.meta.env.VITE_CONTACT_PHONE || FALLBACK_CONTACT_PHONE;

  return (
    <div className="min-h-dvh bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <LandingHeader />
      <main>
        <Hero />
        <Features id={SECTION_IDS.features} />
        <Approach />
        <About id={SECTION_IDS.about} />
        <Plans id={SECTION_IDS.plans} />
      </main>
      <LandingFooter contactEmail={email} contactPhone={phone} />
    </div>
  );
}

import { DEFAULT_CONTACT } from '@terrafund/contracts';
import { SECTION_IDS } from '../sections';
import { About } from './about';
import { Approach } from './approach';
import { Features } from './features';
import { Hero } from './hero';
import { LandingFooter } from './landing-footer';
import { LandingHeader } from './landing-header';
import { Plans } from './plans';

type LandingPageProps = {
  /** The server's CONTACT_EMAIL; its default until the server has answered. */
  contactEmail?: string;
  /** The server's CONTACT_PHONE; its default until the server has answered. */
  contactPhone?: string;
};

/** The public page at / (docs/product.md §2.1 Route table, "Landing page"). */
export function LandingPage({ contactEmail, contactPhone }: LandingPageProps) {
  const email = contactEmail || DEFAULT_CONTACT.email;
  const phone = contactPhone || DEFAULT_CONTACT.phone;

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

import { useState, type MouseEvent, type ReactNode } from 'react';

import { MailIcon, PhoneIcon } from 'lucide-react';
import { telHref } from '@terrafund/contracts';
import { Logo } from '@/components/ui/logo';
import { copyright, useYear } from '@/lib/use-year';

import { LegalModal } from '@/components/legal/legal-modal';
import { PrivacyPolicy } from '@/components/legal/privacy-policy';
import { TermsAndConditions } from '@/components/legal/terms-and-conditions';
import { useT } from '@/lib/i18n';

type LandingFooterProps = { contactEmail: string; contactPhone: string };

type LegalDocument = 'privacy' | 'terms';

const legalButton =
  'rounded-sm text-sm text-slate-600 underline-offset-4 hover:text-emerald-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500 dark:text-slate-400 dark:hover:text-emerald-400';

const contactLink =
  'inline-flex items-center gap-2 rounded-sm text-sm text-slate-600 hover:text-emerald-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500 dark:text-slate-300 dark:hover:text-emerald-400';

export function LandingFooter({ contactEmail, contactPhone }: LandingFooterProps) {
  const { t } = useT('landing');
  const { t: legal } = useT('legal');
  const [openDocument, setOpenDocument] = useState<LegalDocument | null>(null);
  const year = useYear();

  function open(kind: LegalDocument) {
    return (event: MouseEvent<HTMLButtonElement>) => {
      // The dialog hands focus back to whatever had it; Safari does not focus a button on click, so do it here.
      event.currentTarget.focus();
      setOpenDocument(kind);
    };
  }
  const close = () => setOpenDocument(null);

  return (
    <footer className="border-t border-slate-200 bg-white dark:border-white/10 dark:bg-slate-950">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[2fr_1fr_1fr] lg:px-8">
        <div>
          <Logo />
          <p className="mt-4 max-w-sm text-sm leading-relaxed text-slate-600 dark:text-slate-400">
            {t('footer.tagline')}
          </p>
        </div>

        <FooterColumn title={t('footer.contact')}>
          <li>
            <a href={`mailto:${contactEmail}`} className={contactLink}>
              <MailIcon className="h-4 w-4 shrink-0 text-emerald-600 dark:text-emerald-400" />
              <span className="break-all">{contactEmail}</span>
            </a>
          </li>
          <li>
            <a href={telHref(contactPhone)} className={contactLink}>
              <PhoneIcon className="h-4 w-4 shrink-0 text-emerald-600 dark:text-emerald-400" />
              {contactPhone}
            </a>
          </li>
        </FooterColumn>

        <FooterColumn title={t('footer.legal')}>
          <li>
            <button type="button" className={legalButton} onClick={open('privacy')}>
              {legal('privacy.title')}
            </button>
          </li>
          <li>
            <button type="button" className={legalButton} onClick={open('terms')}>
              {legal('terms.title')}
            </button>
          </li>
        </FooterColumn>
      </div>

      <div className="border-t border-slate-200 dark:border-white/10">
        <p className="mx-auto max-w-7xl px-4 py-6 text-sm text-slate-500 sm:px-6 lg:px-8 dark:text-slate-400">
          {copyright(year, t('footer.rights'))}
        </p>
      </div>

      <LegalModal title={legal('privacy.title')} open={openDocument === 'privacy'} onClose={close}>
        <PrivacyPolicy contactEmail={contactEmail} />
      </LegalModal>
      <LegalModal title={legal('terms.title')} open={openDocument === 'terms'} onClose={close}>
        <TermsAndConditions />
      </LegalModal>
    </footer>
  );
}

/** A titled list of the footer's links. */
function FooterColumn({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h2 className="text-sm font-semibold text-slate-900 dark:text-white">{title}</h2>
      <ul className="mt-4 space-y-3">{children}</ul>
    </div>
  );
}

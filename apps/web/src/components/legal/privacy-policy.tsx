import { DATA_EXPORT_TTL_DAYS, KYC_RETENTION_DAYS_DEFAULT } from '@terrafund/contracts';
import { useT } from '@/lib/i18n';
import { EnglishPrevails, LegalSection } from './legal-text';

const KYC_RETENTION_YEARS = Math.round(KYC_RETENTION_DAYS_DEFAULT / 365);

/** The account's buttons for each right: `privacy.rights.<key>Lead` (in bold) and `<key>Text` in the legal namespace. */
const BUTTONS = ['export', 'correction', 'deletion', 'email'] as const;

export function PrivacyPolicy({ contactEmail }: { contactEmail: string }) {
  const { t } = useT('legal');
  const values = { days: DATA_EXPORT_TTL_DAYS, years: KYC_RETENTION_YEARS };
  return (
    <>
      <EnglishPrevails />
      <p className="text-sm leading-relaxed">{t('privacy.intro')}</p>

      <div className="mt-6">
        {(['collect', 'use', 'protect', 'sharing'] as const).map((section) => (
          <LegalSection key={section} title={t(`privacy.${section}.title`)}>
            <p>{t(`privacy.${section}.text`)}</p>
          </LegalSection>
        ))}

        <LegalSection title={t('privacy.rights.title')}>
          <p>{t('privacy.rights.intro')}</p>
          <ul className="list-disc space-y-1 pl-5">
            {(['access', 'correct', 'delete', 'optOut'] as const).map((right) => (
              <li key={right}>{t(`privacy.rights.${right}`)}</li>
            ))}
          </ul>
          <p>{t('privacy.rights.buttons')}</p>
          <ul className="list-disc space-y-1 pl-5">
            {BUTTONS.map((button) => (
              <li key={button}>
                <strong className="font-semibold">{t(`privacy.rights.${button}Lead`)}</strong>{' '}
                {t(`privacy.rights.${button}Text`, values)}
              </li>
            ))}
          </ul>
        </LegalSection>

        <LegalSection title={t('privacy.contact.title')}>
          <p>
            {t('privacy.contact.before')}{' '}
            <a
              href={`mailto:${contactEmail}`}
              className="font-medium text-emerald-700 underline underline-offset-2 hover:text-emerald-600 dark:text-emerald-400"
            >
              {contactEmail}
            </a>
            {t('privacy.contact.after')}
          </p>
        </LegalSection>
      </div>
    </>
  );
}

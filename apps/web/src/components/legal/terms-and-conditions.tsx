import { useT } from '@/lib/i18n';
import { EnglishPrevails, LegalSection } from './legal-text';

/** The eight sections of docs/product.md §1.3 Marketing and legal texts, in order: `terms.<key>` in the legal namespace. */
const TERMS = ['acceptance', 'registration', 'use', 'property', 'warranties', 'liability', 'law', 'termination'] as const;

export function TermsAndConditions() {
  const { t } = useT('legal');
  return (
    <>
      <EnglishPrevails />
      <p className="text-sm leading-relaxed">{t('terms.intro')}</p>
      <ol className="mt-6">
        {TERMS.map((term, index) => (
          <li key={term} className="mt-6 first:mt-0">
            <LegalSection title={`${index + 1}. ${t(`terms.${term}.title`)}`}>
              <p>{t(`terms.${term}.text`)}</p>
            </LegalSection>
          </li>
        ))}
      </ol>
    </>
  );
}

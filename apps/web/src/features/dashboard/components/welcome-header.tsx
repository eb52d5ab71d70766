import type { User } from '@terrafund/contracts';
import { PageHeader } from '@/components/ui/page-header';
import { CheckCircleIcon } from 'lucide-react';
import { useT } from '@/lib/i18n';

/** The greeting by first and last name, and whether the account is verified (docs/product.md §2.5 Member screens). */
export function WelcomeHeader({ user }: { user: Pick<User, 'firstName' | 'lastName' | 'kycVerified'> }) {
  const { t } = useT('dashboard');
  return (
    <PageHeader
      title={t('welcome.title', { firstName: user.firstName, lastName: user.lastName })}
      description={
        user.kycVerified ? (
          <span className="inline-flex items-center gap-1.5">
            <CheckCircleIcon className="h-4 w-4 text-emerald-500" />
            {t('welcome.verified')}
          </span>
        ) : (
          t('welcome.standing')
        )
      }
    />
  );
}

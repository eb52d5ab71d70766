import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { PageHeader } from '@/components/ui/page-header';
import { useUser } from '@/lib/auth';
import { useT } from '@/lib/i18n';
import { AccountStatusCard } from './account-status-card';
import { ChangePasswordCard } from './change-password-card';
import { CloseAccountCard } from './close-account-card';
import { DataExportCard } from './data-export-card';
import { NotificationsCard } from './notifications-card';
import { PersonalInfoCard } from './personal-info-card';
import { SecurityCard } from './security-card';
import { SessionsCard } from './sessions-card';
import { TwoFactorCard } from './two-factor-card';
import { WithdrawalAddressesCard } from './withdrawal-addresses-card';

/** The sections a mail or a notification links to (`/profile#privacy`), opened at when the address names them. */
const SECTIONS = ['security', 'notifications', 'privacy'];

/**
 * /profile (docs/product.md §2.1 Route table): personal information, password, account status and security (2FA,
 * sessions), the withdrawal address book, which mails are sent (Notifications) and the privacy rights (download my data, close my account).
 */
export function ProfilePage() {
  const user = useUser();
  const { t } = useT('profile');
  const passwordSection = useRef<HTMLElement>(null);
  const { hash } = useLocation();

  // /profile#security (the setup an admin without 2FA is sent to, and the mails' link) opens at Security;
  // #privacy (the "export ready" notification) and #notifications at theirs.
  useEffect(() => {
    const id = hash.slice(1);
    if (SECTIONS.includes(id)) document.getElementById(id)?.scrollIntoView?.({ block: 'start' });
  }, [hash]);

  const openChangePassword = () => {
    const section = passwordSection.current;
    if (!section) return;
    const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    section.scrollIntoView?.({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
    section.querySelector<HTMLInputElement>('input')?.focus({ preventScroll: true });
  };

  return (
    <div className="space-y-6">
      <title>{t('page.documentTitle')}</title>
      <PageHeader title={t('page.title')} description={t('page.description')} />
      <div className="grid gap-6 lg:grid-cols-3 lg:items-start">
        <div className="space-y-6 lg:col-span-2">
          <PersonalInfoCard user={user} />
          <ChangePasswordCard user={user} ref={passwordSection} />
          <WithdrawalAddressesCard />
          <div id="notifications" className="scroll-mt-24">
            <NotificationsCard />
          </div>
          <section id="privacy" aria-label={t('page.privacy')} className="scroll-mt-24 space-y-6">
            <DataExportCard user={user} />
            <CloseAccountCard user={user} />
          </section>
        </div>
        <section id="security" aria-label={t('page.security')} className="scroll-mt-24 space-y-6">
          <AccountStatusCard user={user} />
          <SecurityCard onChangePassword={openChangePassword} />
          <TwoFactorCard user={user} />
          <SessionsCard />
        </section>
      </div>
    </div>
  );
}

import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { PageHeader } from '@/components/ui/page-header';
import { useUser } from '@/lib/auth';
import { AccountStatusCard } from './account-status-card';
import { ChangePasswordCard } from './change-password-card';
import { PersonalInfoCard } from './personal-info-card';
import { SecurityCard } from './security-card';
import { SessionsCard } from './sessions-card';
import { TwoFactorCard } from './two-factor-card';

/** /profile (docs/product.md §2.1 Route table): personal information, password, account status and security (2FA, sessions). */
export function ProfilePage() {
  const user = useUser();
  const passwordSection = useRef<HTMLElement>(null);
  const securitySection = useRef<HTMLElement>(null);
  const { hash } = useLocation();

  // /profile#security (the setup an admin without 2FA is sent to, and the mails' link) opens at Security.
  useEffect(() => {
    if (hash === '#security') securitySection.current?.scrollIntoView?.({ block: 'start' });
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
      <title>Profile · Terrafund</title>
      <PageHeader title="Profile" description="Your personal information, password and account status." />
      <div className="grid gap-6 lg:grid-cols-3 lg:items-start">
        <div className="space-y-6 lg:col-span-2">
          <PersonalInfoCard user={user} />
          <ChangePasswordCard ref={passwordSection} />
        </div>
        <section id="security" ref={securitySection} aria-label="Security" className="scroll-mt-24 space-y-6">
          <AccountStatusCard user={user} />
          <SecurityCard onChangePassword={openChangePassword} />
          <TwoFactorCard user={user} />
          <SessionsCard />
        </section>
      </div>
    </div>
  );
}

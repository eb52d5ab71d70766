import { Button } from '@/components/ui/button';
import { LockIcon } from 'lucide-react';
import { useT } from '@/lib/i18n';
import { ProfileCard } from './profile-card';
import { wrappingButton } from './section-header';
import { SettingSummary } from './setting-summary';

/** Spec section 2, Security: the password (two-factor sign-in and sessions have their own cards). */
export function SecurityCard({ onChangePassword }: { onChangePassword: () => void }) {
  const { t } = useT('profile');
  return (
    <ProfileCard title={t('security.title')}>
      <SettingSummary icon={LockIcon} title={t('security.password')} text={t('security.passwordText')} className="px-5 py-5 sm:px-6" />
      <div className="px-5 pb-5 sm:px-6">
        <Button variant="outline" size="sm" onClick={onChangePassword} className={`w-full ${wrappingButton}`}>
          {t('security.change')}
        </Button>
      </div>
    </ProfileCard>
  );
}

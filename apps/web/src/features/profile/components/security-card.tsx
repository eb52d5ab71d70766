import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { LockIcon } from 'lucide-react';
import { useT } from '@/lib/i18n';
import { SectionHeader, wrappingButton } from './section-header';

/** Spec section 2, Security: the password (two-factor sign-in and sessions have their own cards). */
export function SecurityCard({ onChangePassword }: { onChangePassword: () => void }) {
  const { t } = useT('profile');
  return (
    <Card>
      <SectionHeader title={t('security.title')} />
      <div className="flex items-center gap-4 px-5 py-5 sm:px-6">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-emerald-50 text-emerald-600 dark:bg-emerald-500/10 dark:text-emerald-400">
          <LockIcon className="h-5 w-5" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium text-slate-900 dark:text-white">{t('security.password')}</p>
          <p className="text-sm text-slate-500 dark:text-slate-400">{t('security.passwordText')}</p>
        </div>
      </div>
      <div className="px-5 pb-5 sm:px-6">
        <Button variant="outline" size="sm" onClick={onChangePassword} className={`w-full ${wrappingButton}`}>
          {t('security.change')}
        </Button>
      </div>
    </Card>
  );
}

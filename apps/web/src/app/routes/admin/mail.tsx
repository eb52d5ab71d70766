import { Screen } from '@/components/ui/screen';
import { useT } from '@/lib/i18n';
import { UndeliverableMail } from '@/features/admin-mail/components/undeliverable-mail';

export default function AdminMailRoute() {
  const { t } = useT('admin');
  return (
    <Screen title={t('screens.mail.title')} description={t('screens.mail.description')}>
      <UndeliverableMail />
    </Screen>
  );
}

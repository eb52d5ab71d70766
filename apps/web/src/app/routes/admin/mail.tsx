import { UndeliverableMail } from '@/features/admin-mail/components/undeliverable-mail';
import { titledScreen } from '../titled-screen';

export default titledScreen('admin', 'screens.mail', UndeliverableMail);

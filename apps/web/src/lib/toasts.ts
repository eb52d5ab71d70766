import toast, { type ToastOptions } from 'react-hot-toast';
import { localizeMessage } from '@terrafund/contracts/i18n';
import { i18n } from './i18n';

/**
 * One of the spec's messages as a success toast, in the member's language. For mutation hooks: they run outside
 * any component, so they have no `useT` to say it with.
 */
export const toastSuccess = (message: string, options?: ToastOptions) => toast.success(localizeMessage(i18n.t, message), options);

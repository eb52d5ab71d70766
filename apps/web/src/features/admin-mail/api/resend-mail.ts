import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useT } from '@/lib/i18n';
import { mailMessages } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** Puts an undeliverable mail back in the outbox; the server sends it at once. */
export const resendMail = (id: string) => api.post<{ id: string; message: string }>(`/admin/mail/${encodeURIComponent(id)}/resend`);

export function useResendMail() {
  const queryClient = useQueryClient();
  const { say } = useT('admin');
  return useMutation({
    mutationFn: resendMail,
    onSuccess: () => {
      toast.success(say(mailMessages.resent));
    },
    // Also after a failure: a 404 means another admin sent it again first.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.undeliverableMail() });
    },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { messages, type AdminVerifyBody, type UserWithKyc } from '@terrafund/contracts';
import { api, errorMessage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type VerifyKycInput = { userId: string } & AdminVerifyBody;

/** Approves (verified: true) or rejects (verified: false, with the reason the member will read) a pending KYC. */
export const verifyKyc = ({ userId, ...body }: VerifyKycInput) =>
  api.post<UserWithKyc>(`/admin/verify/${encodeURIComponent(userId)}`, body);

export function useVerifyKyc() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyKyc,
    // Toasted here rather than by the buttons: once the fresh detail arrives they are gone (the KYC is no longer pending).
    onSuccess: (_user, { verified }) => {
      toast.success(verified ? messages.kyc.verifiedToast : messages.kyc.rejectedToast);
    },
    // Also after a failure: a 409 means someone else decided first, and the screen should show that decision.
    onSettled: (_user, _error, { userId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.userDetail(userId), exact: true }),
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.pendingUsers(), exact: true }),
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.userLists() }),
      ]),
    meta: { errorToast: (error) => errorMessage(error, messages.kyc.updateFailed) },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';

/**
 * A change to the member's two-factor sign-in (enable, disable): the profile is read again after it, and the
 * global error toast stays silent because the form shows a refusal itself (a wrong code under its field).
 */
export function useTwoFactorMutation<Body, Answer>(mutationFn: (body: Body) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.profile() }),
    meta: { skipGlobalToast: true },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateProfileBody, User } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const updateProfile = (body: UpdateProfileBody) => api.patch<User>('/users/profile', body);

/** PATCH /users/profile, then the user is fetched again (docs/product.md §9.3 Routes). */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      // Merged, so whatever the full profile carries beyond the answer (the KYC object) stays until the refresh.
      queryClient.setQueryData<User>(queryKeys.profile(), (current) => (current ? { ...current, ...user } : user));
      void queryClient.invalidateQueries({ queryKey: queryKeys.profile() });
    },
    // The form shows the failure under its fields and in its own toast (docs/product.md §10 Messages).
    meta: { skipGlobalToast: true },
  });
}

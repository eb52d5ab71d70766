import { useMutation } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { messages, type AuthSuccess, type LoginTwoFactorBody } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { useStartSession } from '@/lib/auth';

export const loginSecondFactor = (body: LoginTwoFactorBody) => api.post<AuthSuccess>('/users/login/2fa', body);

/** The second step of a sign-in with two-factor authentication: the session starts as after a plain sign-in. */
export function useLoginSecondFactor(remember: boolean) {
  const startSession = useStartSession();
  return useMutation({
    mutationFn: loginSecondFactor,
    onSuccess: (response) => {
      toast.success(messages.toasts.loginSuccess);
      startSession(response, remember);
    },
    // A 401 here means the sign-in attempt ended (not a session): the form sends the member back to the password.
    meta: { skipGlobalToast: true, skipSessionExpiry: true },
  });
}

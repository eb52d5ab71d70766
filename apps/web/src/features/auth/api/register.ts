import { useMutation } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { messages, type LoginResponse, type RegisterBody } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { useStartSession } from '@/lib/auth';
import { isSignedIn } from './login';

/** Answers requiresVerification (docs/product.md §3.2); a session answer is honoured too, as the spec allows. */
export const register = (body: RegisterBody) => api.post<LoginResponse>('/users/register', body);

export function useRegister() {
  const startSession = useStartSession();
  return useMutation({
    mutationFn: register,
    onSuccess: (response) => {
      toast.success(messages.toasts.registrationSuccess);
      if (isSignedIn(response)) startSession(response, true);
    },
    meta: { skipGlobalToast: true, skipSessionExpiry: true },
  });
}

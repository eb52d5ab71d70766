import { useMutation } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { messages, type AuthSuccess, type VerifyOtpBody } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { useStartSession } from '@/lib/auth';

export const verifyOtp = (body: VerifyOtpBody) => api.post<AuthSuccess>('/users/verify-otp', body);

/**
 * Checks the mailed code; success stores token and user (docs/product.md §3.3 Verification codes). The toast is raised here
 * because storing the session moves the user on, unmounting the screen.
 */
export function useVerifyOtp({ remember }: { remember: boolean }) {
  const startSession = useStartSession();
  return useMutation({
    mutationFn: (body: VerifyOtpBody) => verifyOtp({ ...body, rememberMe: remember }),
    onSuccess: (session) => {
      toast.success(messages.toasts.otpVerified);
      startSession(session, remember);
    },
    meta: { skipGlobalToast: true, skipSessionExpiry: true },
  });
}

import { useMutation } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { messages, type AuthSuccess, type LoginBody, type LoginResponse, type TwoFactorRequired, type VerificationRequired } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { useStartSession } from '@/lib/auth';

export type LoginInput = Required<LoginBody>;

export const login = (body: LoginInput) => api.post<LoginResponse>('/users/login', body);

export function needsVerification(response: LoginResponse): response is VerificationRequired {
  return 'requiresVerification' in response && response.requiresVerification;
}

export function needsSecondFactor(response: LoginResponse): response is TwoFactorRequired {
  return 'twoFactorRequired' in response && response.twoFactorRequired;
}

export const isSignedIn = (response: LoginResponse): response is AuthSuccess => 'token' in response;

/**
 * Signs in. A verified account gets its session stored (where remember-me says); an unverified one
 * answers requiresVerification and the caller shows the code screen, an account with two-factor sign-in
 * answers twoFactorRequired and the caller asks for the authenticator code. The success toast is raised here,
 * not by the form: storing the session moves the user on and the form is gone by then.
 */
export function useLogin() {
  const startSession = useStartSession();
  return useMutation({
    mutationFn: login,
    onSuccess: (response, input) => {
      // Unverified, or 2FA on: the caller shows the e-mail code or the authenticator code screen.
      if (!isSignedIn(response)) return;
      toast.success(messages.toasts.loginSuccess);
      startSession(response, input.rememberMe);
    },
    // The form shows this failure under its fields and in its own toast (docs/product.md §10 Messages).
    meta: { skipGlobalToast: true, skipSessionExpiry: true },
  });
}

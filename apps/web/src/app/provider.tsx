import { useEffect, useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ToastBar, Toaster } from 'react-hot-toast';
import { FollowMemberLanguage } from '@/components/language-menu';
import { AuthProvider } from '@/lib/auth';
import { createQueryClient, showFlashMessage } from '@/lib/query-client';
import { useT } from '@/lib/i18n';

/** Toasts keep react-hot-toast's default durations (docs/product.md §11.1 Limits); only their colours follow the theme. */
const toastClassName =
  'bg-white! text-slate-900! shadow-lg! ring-1 ring-slate-200 dark:bg-slate-800! dark:text-slate-100! dark:ring-slate-700 text-sm!';

/**
 * A toast comes in and goes out by moving, never by fading (index.css, `--toast-enter`): react-hot-toast's own
 * animations fade the text in from transparent, and for its first third of a second a toast is text that
 * cannot be read against what is behind it (WCAG 1.4.3, what axe measured on a toast caught coming in).
 * Until the toast's height is known, react-hot-toast keeps it invisible and placed; that stays.
 */
function toastMotion(visible: boolean) {
  return visible ? 'var(--toast-enter)' : 'var(--toast-exit)';
}

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  // A toast built from messages.ts (in English) is shown in the app's language, wherever it was raised (issue 35).
  const { say } = useT();

  useEffect(() => {
    showFlashMessage();
  }, []);

  return (
    <QueryClientProvider client={client}>
      <AuthProvider>
        <FollowMemberLanguage />
        {children}
      </AuthProvider>
      <Toaster toastOptions={{ className: toastClassName }}>
        {(toast) => (
          <ToastBar
            toast={typeof toast.message === 'string' ? { ...toast, message: say(toast.message) } : toast}
            style={toast.height ? { animation: toastMotion(toast.visible) } : undefined}
          />
        )}
      </Toaster>
    </QueryClientProvider>
  );
}

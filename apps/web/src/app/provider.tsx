import { useEffect, useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Toaster } from 'react-hot-toast';
import { AuthProvider } from '@/lib/auth';
import { createQueryClient, showFlashMessage } from '@/lib/query-client';

/** Toasts keep react-hot-toast's default durations (docs/product.md §11.1 Limits); only their colours follow the theme. */
const toastClassName =
  'bg-white! text-slate-900! shadow-lg! ring-1 ring-slate-200 dark:bg-slate-800! dark:text-slate-100! dark:ring-slate-700 text-sm!';

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());

  useEffect(() => {
    showFlashMessage();
  }, []);

  return (
    <QueryClientProvider client={client}>
      <AuthProvider>{children}</AuthProvider>
      <Toaster toastOptions={{ className: toastClassName }} />
    </QueryClientProvider>
  );
}

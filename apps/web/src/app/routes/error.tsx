import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useT } from '@/lib/i18n';

function describe(error: unknown, t: (key: string) => string): string {
  if (isRouteErrorResponse(error)) return error.status === 404 ? t('error.notFound') : `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return t('error.unknown');
}

/**
 * The fallback for an unknown address or a screen that failed to render (docs/product.md §2.2 Guards). The build draws
 * it for an unknown address too (scripts/prerender.mjs), and the server sends that page with a 404 to every address
 * that is neither a route nor a file (apps/api/src/plugins/web.ts).
 */
export function RouteError() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) console.error(error);
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const { t } = useT();
  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-50 px-4 dark:bg-slate-950">
      <title>{notFound ? t('error.notFoundTitle') : t('error.errorTitle')}</title>
      <div className="w-full max-w-lg rounded-2xl border border-slate-200 bg-white p-8 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">{t('error.title')}</h1>
        <p className="mt-3 rounded-lg bg-slate-100 px-4 py-3 font-mono text-sm break-words text-rose-700 dark:bg-slate-800 dark:text-rose-300">
          {describe(error, t)}
        </p>
        {/* A full page load, so nothing of the failed state survives. */}
        <a
          href="/"
          className="mt-6 inline-flex h-10 items-center rounded-lg bg-emerald-600 px-4 text-sm font-medium text-white hover:bg-emerald-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500 dark:bg-emerald-500 dark:text-slate-950 dark:hover:bg-emerald-400"
        >
          {t('error.home')}
        </a>
      </div>
    </main>
  );
}

import { isRouteErrorResponse, useRouteError } from 'react-router';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'Unknown error';
}

/** The fallback for an unknown address or a screen that failed to render (docs/product.md §2.2 Guards). */
export function RouteError() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <div className="flex min-h-dvh items-center justify-center bg-slate-50 px-4 dark:bg-slate-950">
      <title>Error · Terrafund</title>
      <div className="w-full max-w-lg rounded-2xl border border-slate-200 bg-white p-8 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">Unexpected Application Error!</h1>
        <p className="mt-3 rounded-lg bg-slate-100 px-4 py-3 font-mono text-sm break-words text-rose-700 dark:bg-slate-800 dark:text-rose-300">
          {describe(error)}
        </p>
        {/* A full page load, so nothing of the failed state survives. */}
        <a
          href="/"
          className="mt-6 inline-flex h-10 items-center rounded-lg bg-emerald-600 px-4 text-sm font-medium text-white hover:bg-emerald-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500 dark:bg-emerald-500 dark:text-slate-950 dark:hover:bg-emerald-400"
        >
          Back to the home page
        </a>
      </div>
    </div>
  );
}

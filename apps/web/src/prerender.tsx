import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProvider } from './app/provider';
import { routes } from './app/router';

export { earlyRequests } from './app/startup-data';

/**
 * The markup a first-time visitor's browser draws for `pathname` before any request is answered: no session, no
 * server data. scripts/prerender.mjs puts it in the page at build, so the landing and sign-in pages paint from the
 * HTML alone (issue 17: LCP on a slow phone); main.tsx then renders the same tree over it.
 */
export async function prerender(pathname: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(pathname, 'http://localhost')));
  if (context instanceof Response) throw new Error(`${pathname} answers ${context.status} when pre-rendered`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <StrictMode>
      <AppProvider>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProvider>
    </StrictMode>,
  );
}

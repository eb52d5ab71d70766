import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type RouteObject } from 'react-router';
import { DEFAULT_CONTACT } from '@terrafund/contracts';
import { AppFrame } from './app/app-frame';
import { DRAWN_CONFIG_ATTRIBUTES } from './app/drawn-page';
import { routes } from './app/router';
import { i18n, switchLanguage } from './lib/i18n';
import { publicConfigQueryOptions, type ContactConfig } from './lib/public-config';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@terrafund/contracts/i18n';
import { createQueryClient } from './lib/query-client';

export { earlyRequests } from './app/startup-data';

/** The languages each drawn page is drawn in (issue 35): the server sends the visitor's (apps/api/src/plugins/web.ts). */
export const drawnLanguages: readonly Language[] = LANGUAGES;

/** The site's title in a language: the page's <title> until the app runs. */
export async function siteTitle(language: Language): Promise<string> {
  await switchLanguage(language);
  return i18n.t('common:siteTitle');
}

/**
 * The public settings a page is drawn with: the defaults, which a server with its own writes over (plugins/web.ts).
 * prerender.mjs puts them on #root as these attributes, and the app starts from them (app/drawn-page.ts).
 */
const drawnConfig: ContactConfig = { contactEmail: DEFAULT_CONTACT.email, contactPhone: DEFAULT_CONTACT.phone };
export const drawnConfigAttributes = Object.entries(DRAWN_CONFIG_ATTRIBUTES).map(([key, attribute]) => [attribute, drawnConfig[key as keyof ContactConfig]]);

/**
 * The markup a first-time visitor's browser draws for `pathname` before any request is answered: no session, no
 * server data but the public settings the page carries. scripts/prerender.mjs puts it in the page at build, so the
 * landing and sign-in pages paint from the HTML alone (issue 17: LCP on a slow phone); main.tsx then adopts it with
 * the same tree (app/app-frame.tsx), in the same language. An address no route matches draws the app's not-found
 * screen.
 */
export async function prerender(pathname: string, language: Language = DEFAULT_LANGUAGE): Promise<string> {
  // In the language the page is drawn in, with its catalogue, as main.tsx starts the app on it (<html lang>).
  await switchLanguage(language);
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(pathname, 'http://localhost')));
  if (context instanceof Response) throw new Error(`${pathname} answers ${context.status} when pre-rendered`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const queryClient = createQueryClient();
  queryClient.setQueryData(publicConfigQueryOptions().queryKey, drawnConfig);
  return renderToString(
    <AppFrame queryClient={queryClient}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppFrame>,
  );
}

/**
 * Every address pattern of the route table (`/projects/:id`), for the server, which answers 404 to any other
 * (apps/api/src/plugins/web.ts reads them from dist/prerendered/routes.json). The server matches static segments
 * and `:params` only; a pattern with anything else stops the build rather than be matched differently there.
 */
export function routePatterns(): string[] {
  const found = new Set<string>();
  const visit = (list: RouteObject[], base: string) => {
    for (const route of list) {
      const full = route.path === undefined ? base : route.path.startsWith('/') ? route.path : `${base.replace(/\/$/, '')}/${route.path}`;
      if (route.index || route.path !== undefined) found.add(full);
      if (route.children) visit(route.children, full);
    }
  };
  visit(routes, '');
  for (const pattern of found) {
    if (!/^\/([\w-]+|:\w+)?(\/([\w-]+|:\w+))*$/.test(pattern)) throw new Error(`the server cannot match the route pattern ${pattern}`);
  }
  return [...found].sort();
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@terrafund/contracts';

/** The error shape every route may answer with, declared once for the OpenAPI document. */
export const errorResponses = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  429: errorResponse,
} as const;

/** The bearer-token requirement of every signed-in route, for the OpenAPI document. */
export const bearerAuth = [{ bearer: [] }];

/**
 * The schema pieces each route of a module repeats: the module's OpenAPI tags, the bearer requirement of a signed-in
 * route, and the error answers beside the route's own (`answers`, e.g. `{ 200: schema }`). `parts` holds what is the
 * route's own: description, params, querystring, body.
 */
export function routeSchemas(tags: string[]) {
  const open = <Parts extends object, Answers extends object>(parts: Parts, answers: Answers) => ({
    tags,
    ...parts,
    response: { ...errorResponses, ...answers },
  });
  const signedIn = <Parts extends object, Answers extends object>(parts: Parts, answers: Answers) => ({
    tags,
    security: bearerAuth,
    ...parts,
    response: { ...errorResponses, ...answers },
  });
  return {
    open,
    signedIn,
    /** A route anyone may call: its access and its schema. */
    public: <Parts extends object, Answers extends object>(parts: Parts, answers: Answers) => ({
      config: { access: 'public' as const },
      schema: open(parts, answers),
    }),
    /** A signed-in member's route: its access, and the bearer requirement that goes with it. */
    user: <Parts extends object, Answers extends object>(parts: Parts, answers: Answers) => ({
      config: { access: 'user' as const },
      schema: signedIn(parts, answers),
    }),
    /** An admin's route: its access, and the bearer requirement that goes with it. */
    admin: <Parts extends object, Answers extends object>(parts: Parts, answers: Answers) => ({
      config: { access: 'admin' as const },
      schema: signedIn(parts, answers),
    }),
  };
}

type RouteApp = Parameters<FastifyPluginAsyncZod>[0];

/**
 * A module's routes, as a plugin made from its dependencies: `register` receives the app, the dependencies and the
 * module's `routeSchemas(tags)`.
 */
export function moduleRoutes<D>(
  tags: string[],
  register: (app: RouteApp, deps: D, schemas: ReturnType<typeof routeSchemas>) => Promise<void> | void,
) {
  return (deps: D): FastifyPluginAsyncZod =>
    async (app) => {
      await register(app, deps, routeSchemas(tags));
    };
}

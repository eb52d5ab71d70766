import { z } from 'zod';
import {
  adminUpdateUserBody,
  adminUserDetailSchema,
  idParam,
  listUsersQuery,
  messageResponse,
  userWithKycSchema,
} from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { requireAuth } from '../sessions';
import { moduleRoutes } from '../../lib/route-schemas';
import * as usersService from './users.service';

const userList = z.array(userWithKycSchema);

/** Admin user management (docs/product.md §9.3 Routes: /users… and /admin/users…). */
export const userAdminRoutes = moduleRoutes(['admin users'], (app, deps: Deps, schemas) => {

  const list = async (query: z.output<typeof listUsersQuery>, reply: { header(k: string, v: string): unknown }) => {
    const { users, total } = await usersService.listUsers(deps, query);
    reply.header('x-total-count', String(total));
    return users;
  };

  app.get('/users', {
    ...schemas.admin({ querystring: listUsersQuery }, { 200: userList }),
    handler: async (request, reply) => list(request.query, reply),
  });

  app.get('/admin/users', {
    ...schemas.admin({ querystring: listUsersQuery }, { 200: userList }),
    handler: async (request, reply) => list(request.query, reply),
  });

  app.get('/users/:id', {
    ...schemas.admin({ params: idParam }, { 200: userWithKycSchema }),
    handler: async (request) => usersService.getUser(deps, request.params.id),
  });

  app.get('/admin/users/:id', {
    ...schemas.admin({ params: idParam }, { 200: adminUserDetailSchema }),
    handler: async (request) => usersService.adminUserDetail(deps, request.params.id),
  });

  app.patch('/users/:id', {
    ...schemas.admin({ params: idParam, body: adminUpdateUserBody }, { 200: userWithKycSchema }),
    handler: async (request) =>
      usersService.adminUpdateUser(deps, requireAuth(request).user, request.params.id, request.body),
  });

  app.delete('/users/:id', {
    ...schemas.admin({ params: idParam }, { 200: messageResponse }),
    handler: async (request) => usersService.deleteUser(deps, requireAuth(request).user, request.params.id),
  });
});

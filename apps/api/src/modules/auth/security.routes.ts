import { z } from 'zod';
import {
  authSuccess,
  loginTwoFactorBody,
  messageResponse,
  recoveryCodesResponse,
  sessionListSchema,
  twoFactorDisableBody,
  twoFactorEnableBody,
  twoFactorSetupBody,
  twoFactorSetupResponse,
} from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { requireAuth } from '../sessions';
import { perAddress } from '../../lib/route-limits';
import { moduleRoutes } from '../../lib/route-schemas';
import * as auth from './auth.service';
import { listSessions, revokeOtherSessions, revokeOwnSession } from '../sessions';
import * as twoFactor from './two-factor.service';

/** Two-factor sign-in and the member's own sessions (issue 15). */
export const securityRoutes = moduleRoutes(['security'], (app, deps: Deps, schemas) => {
  const limits = deps.config.rateLimits;
  // The password (and a code) are guessed through these too: limited per account, like change-password.
  const perAccount = { ...perAddress(limits.changePasswordPerAccount), keyGenerator: (request: Parameters<typeof requireAuth>[0]) => `2fa-account:${requireAuth(request).user.id}` };

  /** A two-factor setting of the signed-in member: its access, its per-account limit and its schema, as `schemas.user`. */
  const twoFactorSetting = <Parts extends object, Answers extends object>(parts: Parts, answers: Answers) => ({
    config: { access: 'user' as const, rateLimit: perAccount },
    schema: schemas.signedIn(parts, answers),
  });

  app.post('/users/2fa/setup', {
    ...twoFactorSetting(
      {
        description:
          'Starts setting up two-factor sign-in: needs the current password (400 on `password` when missing or wrong, as disable). Answers a new secret that replaces any unconfirmed one; 409 when 2FA is already on.',
        body: twoFactorSetupBody,
      },
      { 200: twoFactorSetupResponse },
    ),
    handler: async (request) => twoFactor.setupTwoFactor(deps, requireAuth(request), request.body),
  });

  app.post('/users/2fa/enable', {
    ...twoFactorSetting(
      {
        description:
          'Turns two-factor sign-in on with the current password and a code of the secret set up: answers the ten recovery codes once, ends every other session of the account and mails the owner.',
        body: twoFactorEnableBody,
      },
      { 200: recoveryCodesResponse },
    ),
    handler: async (request) => twoFactor.enableTwoFactor(deps, requireAuth(request), request.body),
  });

  app.post('/users/2fa/disable', {
    ...twoFactorSetting({ body: twoFactorDisableBody }, { 200: messageResponse }),
    handler: async (request) => twoFactor.disableTwoFactor(deps, requireAuth(request), request.body),
  });

  app.post('/users/login/2fa', {
    config: { access: 'public', rateLimit: perAddress(limits.loginPerAddress) },
    schema: schemas.open(
      {
        description:
          'The second step of a sign-in that answered `{twoFactorRequired: true, challenge}`: a current authenticator code or an unused recovery code. Answers like a plain sign-in. A wrong code is a 400; the fifth, an unknown, used or expired (10 minutes) challenge a 401.',
        body: loginTwoFactorBody,
      },
      { 200: authSuccess },
    ),
    handler: async (request) => auth.loginSecondFactor(deps, request.body, { ip: request.ip, userAgent: request.headers['user-agent'] }),
  });

  app.get('/users/sessions', {
    ...schemas.user({}, { 200: sessionListSchema }),
    handler: async (request) => listSessions(deps, requireAuth(request)),
  });

  app.delete('/users/sessions', {
    ...schemas.user(
      {
        description: 'Sign out everywhere else: ends every session of the caller but the one making the request.',
      },
      { 204: z.null() },
    ),
    handler: async (request, reply) => {
      await revokeOtherSessions(deps, requireAuth(request));
      return reply.status(204).send(null);
    },
  });

  app.delete('/users/sessions/:id', {
    ...schemas.user(
      {
        params: z.object({ id: z.string().max(100) }),
      },
      { 204: z.null() },
    ),
    handler: async (request, reply) => {
      await revokeOwnSession(deps, requireAuth(request), request.params.id);
      return reply.status(204).send(null);
    },
  });
});

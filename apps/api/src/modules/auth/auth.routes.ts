import {
  authSuccess,
  changePasswordBody,
  emailOnlyBody,
  loginBody,
  loginResponse,
  messageResponse,
  registerBody,
  resetPasswordBody,
  updateProfileBody,
  userWithKycSchema,
  verificationRequired,
  verifyOtpBody,
} from '@terrafund/contracts';
import type { FastifyRequest } from 'fastify';
import type { Deps, RequestMeta } from '../../deps';
import { requireAuth } from '../sessions';
import { keyedLimit, perAddress } from '../../lib/route-limits';
import { moduleRoutes } from '../../lib/route-schemas';
import { normalizeEmail, publicUser, updateProfile } from '../users';
import * as auth from './auth.service';
import { requestLanguage } from '../../lib/i18n';

const meta = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

/** Sign-up, sign-in, codes, passwords and the caller's own profile (docs/product.md §9.3 Routes). */
export const authRoutes = moduleRoutes(['auth'], (app, deps: Deps, schemas) => {
  const limits = deps.config.rateLimits;
  // Counted whether or not the address has an account, so the limit itself tells nothing.
  const bodyEmail = (request: FastifyRequest) => normalizeEmail((request.body as { email: string }).email);
  const registerPerAccount = keyedLimit(app, 'register', limits.registerPerAccount, bodyEmail);
  const forgotPerAccount = keyedLimit(app, 'forgot-password', limits.forgotPerAccount, bodyEmail);

  app.post('/users/register', {
    config: { access: 'public', rateLimit: perAddress(limits.register) },
    schema: schemas.open({ body: registerBody }, { 201: verificationRequired }),
    preHandler: registerPerAccount,
    handler: async (request, reply) => reply.status(201).send(await auth.register(deps, request.body, requestLanguage(request))),
  });

  app.post('/users/login', {
    config: { access: 'public', rateLimit: perAddress(limits.loginPerAddress) },
    schema: schemas.open({ body: loginBody }, { 200: loginResponse }),
    handler: async (request) => auth.login(deps, request.body, meta(request)),
  });

  app.post('/users/verify-otp', {
    config: { access: 'public', rateLimit: perAddress(limits.verifyPerAddress) },
    schema: schemas.open({ body: verifyOtpBody }, { 200: authSuccess }),
    handler: async (request) => auth.verifyOtp(deps, request.body, meta(request)),
  });

  app.post('/users/resend-otp', {
    config: { access: 'public', rateLimit: perAddress(limits.resendPerAddress) },
    schema: schemas.open({ body: emailOnlyBody }, { 200: messageResponse }),
    handler: async (request) => auth.resendOtp(deps, request.body),
  });

  app.post('/users/forgot-password', {
    config: { access: 'public', rateLimit: perAddress(limits.forgotPerAddress) },
    schema: schemas.open({ body: emailOnlyBody }, { 200: messageResponse }),
    preHandler: forgotPerAccount,
    handler: async (request) => auth.forgotPassword(deps, request.body),
  });

  app.post('/users/reset-password', {
    config: { access: 'public', rateLimit: perAddress(limits.resetPerAddress) },
    schema: schemas.open({ body: resetPasswordBody }, { 200: messageResponse }),
    handler: async (request) => auth.resetPassword(deps, request.body),
  });

  app.post('/users/logout', {
    ...schemas.user({}, { 200: messageResponse }),
    handler: async (request) => auth.logout(deps, requireAuth(request).sessionId),
  });

  app.post('/users/change-password', {
    config: {
      access: 'user',
      // The current password is guessed through this route too: limited per account, like sign-in.
      rateLimit: { ...perAddress(limits.changePasswordPerAccount), keyGenerator: (request) => `account:${requireAuth(request).user.id}` },
    },
    schema: schemas.signedIn({ body: changePasswordBody }, { 200: messageResponse }),
    handler: async (request) => auth.changePassword(deps, requireAuth(request), request.body),
  });

  app.get('/users/profile', {
    ...schemas.user({}, { 200: userWithKycSchema }),
    handler: async (request) => publicUser(deps, requireAuth(request).user),
  });

  app.patch('/users/profile', {
    ...schemas.user({ body: updateProfileBody }, { 200: userWithKycSchema }),
    handler: async (request) => updateProfile(deps, requireAuth(request).user, request.body),
  });
});

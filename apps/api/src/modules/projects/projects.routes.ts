import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createProjectBody,
  idParam,
  investBody,
  investResponseSchema,
  messages,
  PROJECT_DOCUMENT_MAX_BYTES,
  PROJECT_IMAGE_MAX_BYTES,
  projectAssetKind,
  projectAssetSchema,
  projectSchema,
  projectsQuery,
  updateProjectBody,
  type ProjectAssetKind,
} from '@terrafund/contracts';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { acceptUploads, readUpload, refuseOversized } from '../../lib/multipart';
import type { FileStorage } from '../../lib/storage';
import { requireAuth } from '../sessions';
import { errorResponses, routeSchemas } from '../../lib/route-schemas';
import { DOCUMENT_HEADERS, FILE_CONTENT_SECURITY_POLICY } from '../../lib/security-headers';
import { readAsset, uploadAsset } from './assets.service';
import { invest } from './invest.service';
import * as service from './projects.service';

const m = messages.projects;
const MAX_UPLOAD_BYTES = Math.max(PROJECT_IMAGE_MAX_BYTES, PROJECT_DOCUMENT_MAX_BYTES);
const tooLarge = (kind: ProjectAssetKind | undefined) =>
  new AppError('PAYLOAD_TOO_LARGE', kind === 'document' ? m.documentTooLarge : m.imageTooLarge);
const kindInvalid = () => new AppError('VALIDATION_ERROR', m.assetKindInvalid, { fields: { kind: m.assetKindInvalid } });
/** Uploaded files never change, so browsers and proxies may keep them for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The catalogue and project detail (members), the admin's project CRUD and uploads, investing (members with
 * approved KYC), and the uploaded images and documents (public: an <img> sends no Authorization header).
 */
export const projectRoutes =
  (deps: Deps & { storage: FileStorage }): FastifyPluginAsyncZod =>
  async (app) => {
    await acceptUploads(app, MAX_UPLOAD_BYTES);
    const tags = ['projects'];
    const schemas = routeSchemas(tags);

    app.get('/projects', {
      // Signed-in, like the screens. The owner's e-mail address is for admins: members get the owner by name.
      ...schemas.user(
        {
          description:
            'Newest first; `search` matches title, description or location (case-insensitive); empty filters mean all. ' +
            '`owner.email` is sent to admins only: members see the owner by name.',
          querystring: projectsQuery,
        },
        { 200: z.array(projectSchema) },
      ),
      handler: async (request) => service.listProjects(deps, requireAuth(request).user, request.query),
    });

    app.get('/projects/:id', {
      ...schemas.user({ description: '`owner.email` is sent to admins only.', params: idParam }, { 200: projectSchema }),
      handler: async (request) => service.getProject(deps, requireAuth(request).user, request.params.id),
    });

    app.post('/projects', {
      ...schemas.admin({ body: createProjectBody }, { 201: projectSchema }),
      handler: async (request, reply) =>
        reply.status(201).send(await service.createProject(deps, requireAuth(request).user, request.body)),
    });

    app.patch('/projects/:id', {
      ...schemas.admin(
        {
          description: 'Any subset of the fields; the merged project must pass every rule, and its target may not fall below what is funded.',
          params: idParam,
          body: updateProjectBody,
        },
        { 200: projectSchema },
      ),
      handler: async (request) => service.updateProject(deps, requireAuth(request).user, request.params.id, request.body),
    });

    app.delete('/projects/:id', {
      ...schemas.admin(
        {
          description: 'Only a project without investments (409 otherwise: set it to sold or reserved instead).',
          params: idParam,
        },
        { 204: z.null().describe('deleted') },
      ),
      handler: async (request, reply) => {
        await service.deleteProject(deps, requireAuth(request).user, request.params.id);
        return reply.status(204).send(null);
      },
    });

    app.post('/projects/:id/invest', {
      ...schemas.user(
        {
          description: 'Approved KYC; an available project; at least the minimum, at most what is left and at most the wallet balance.',
          params: idParam,
          body: investBody,
        },
        { 201: investResponseSchema },
      ),
      handler: async (request, reply) =>
        reply.status(201).send(await invest(deps, requireAuth(request).user, request.params.id, request.body)),
    });

    app.post('/projects/assets', {
      ...schemas.admin(
        {
          description:
            'multipart/form-data with `kind` (image or document) and `file`: images png, jpeg or webp, stored as webp at 320, 640 and 1600 px wide; documents pdf; at most 10 MB.',
          querystring: z.object({ kind: z.string().max(20).optional() }),
        },
        { 201: projectAssetSchema, 413: errorResponses[400], 415: errorResponses[400] },
      ),
      onRequest: refuseOversized(MAX_UPLOAD_BYTES, (request) => tooLarge(projectAssetKind.safeParse((request.query as { kind?: unknown }).kind).data)),
      handler: async (request, reply) => {
        const admin = requireAuth(request).user;
        const parseKind = (value: unknown): ProjectAssetKind => {
          const parsed = projectAssetKind.safeParse(value);
          if (!parsed.success) throw kindInvalid();
          return parsed.data;
        };
        const { field: kind, file } = await readUpload(request, {
          field: 'kind',
          initial: () => (request.query.kind !== undefined ? parseKind(request.query.kind) : undefined),
          parseField: parseKind,
          notMultipart: () => new AppError('UNSUPPORTED_MEDIA_TYPE', m.fileMissing),
          tooLarge,
          fieldMissing: kindInvalid,
          fileMissing: m.fileMissing,
        });
        const asset = await uploadAsset(deps, admin, { kind, bytes: file.bytes, fileName: file.name });
        return reply.status(201).send(asset);
      },
    });

    const serveAsset = {
      config: { access: 'public' as const },
      // Every /api answer gets `no-store` when it arrives (plugins/security.ts); this replaces it on a file sent.
      onSend: async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
        if (reply.statusCode === 200 || reply.statusCode === 304) reply.header('cache-control', IMMUTABLE);
        return payload;
      },
    };
    const sendAsset = async (request: FastifyRequest, reply: FastifyReply, asset: Awaited<ReturnType<typeof readAsset>>) => {
      // Opened in a tab ("View Document", a picture at full size), a file is a document: the page headers.
      reply
        .headers(DOCUMENT_HEADERS)
        .header('content-security-policy', FILE_CONTENT_SECURITY_POLICY)
        .header('etag', asset.etag)
        .header('x-content-type-options', 'nosniff');
      const ifNoneMatch = request.headers['if-none-match'];
      if (typeof ifNoneMatch === 'string' && ifNoneMatch.split(',').some((tag) => tag.trim() === asset.etag)) {
        return reply.status(304).send();
      }
      reply.header('content-type', asset.contentType);
      // Documents open in the browser's viewer (the spec's "View Document" opens a new tab). No CSP sandbox
      // here, unlike KYC files: Chromium refuses to start its PDF viewer in a sandboxed document.
      if (asset.kind === 'document') reply.header('content-disposition', `inline; filename="${asset.fileName}"`);
      return reply.send(await asset.bytes());
    };

    app.get('/projects/assets/:id', {
      ...serveAsset,
      schema: { tags, description: 'An uploaded document, or an image at its full size.', params: idParam },
      handler: async (request, reply) => sendAsset(request, reply, await readAsset(deps, request.params.id)),
    });

    app.get('/projects/assets/:id/:size', {
      ...serveAsset,
      schema: {
        tags,
        description: 'An uploaded image at one of its sizes: thumb (320 px wide), card (640) or full (1600).',
        params: z.object({ id: z.string().max(200), size: z.string().max(20) }),
      },
      handler: async (request, reply) => sendAsset(request, reply, await readAsset(deps, request.params.id, request.params.size)),
    });
  };

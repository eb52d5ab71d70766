import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminVerifyBody,
  KYC_DOCUMENT_TYPES,
  KYC_MAX_FILE_BYTES,
  kycDocumentLink,
  kycSubmitBody,
  kycUploadResponse,
  messages,
  userWithKycSchema,
  type KycDocumentType,
  type PublicUser,
} from '@terrafund/contracts';
import type { UserRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { acceptUploads, readUpload, refuseOversized } from '../../lib/multipart';
import type { FileStorage } from '../../lib/storage';
import { requireAuth } from '../sessions';
import { errorResponses, routeSchemas } from '../../lib/route-schemas';
import { DOCUMENT_HEADERS } from '../../lib/security-headers';
import * as kyc from './kyc.service';

const documentTypeField = z.enum(KYC_DOCUMENT_TYPES, { error: messages.kyc.documentTypeInvalid });

/**
 * How the KYC answers show a member: the API's one user object (modules/users publicUsers), handed in by the
 * composition root because that object shows the member's KYC (kycInfoFor), so users imports kyc and not the other way.
 */
type ShowUsers = (deps: Deps, rows: UserRow[]) => Promise<PublicUser[]>;

/** Member KYC (upload, submit, signed document links) and the admin's review (docs/product.md §2.1 Route table, §9.3 Routes; docs/product.md §4 KYC). */
export const kycRoutes =
  (deps: Deps & { storage: FileStorage; publicUsers: ShowUsers }): FastifyPluginAsyncZod =>
  async (app) => {
    const show = async (row: UserRow) => (await deps.publicUsers(deps, [row]))[0]!;
    await acceptUploads(app, KYC_MAX_FILE_BYTES);
    const kycSchemas = routeSchemas(['kyc']);
    const adminUsersSchemas = routeSchemas(['admin users']);

    app.post('/kyc/upload-document', {
      ...kycSchemas.user(
        {
          description:
            'multipart/form-data with `documentType` (idFront, idBack, proofOfAddress) and `file` (jpeg or png; pdf also for proofOfAddress; at most 5 MB).',
        },
        { 201: kycUploadResponse, 413: errorResponses[400], 415: errorResponses[400] },
      ),
      onRequest: refuseOversized(KYC_MAX_FILE_BYTES, () => new AppError('PAYLOAD_TOO_LARGE', messages.kyc.fileTooLarge)),
      handler: async (request, reply) => {
        const { user } = requireAuth(request);
        const documentTypeInvalid = () =>
          new AppError('VALIDATION_ERROR', messages.kyc.documentTypeInvalid, { fields: { documentType: messages.kyc.documentTypeInvalid } });
        const upload = await readUpload(request, {
          field: 'documentType',
          initial: () => documentTypeField.safeParse((request.query as Record<string, unknown> | undefined)?.documentType).data,
          parseField: (value): KycDocumentType => {
            const parsed = documentTypeField.safeParse(value);
            if (!parsed.success) throw documentTypeInvalid();
            return parsed.data;
          },
          notMultipart: () => new AppError('UNSUPPORTED_MEDIA_TYPE', messages.kyc.fileMissing),
          tooLarge: () => new AppError('PAYLOAD_TOO_LARGE', messages.kyc.fileTooLarge),
          fieldMissing: documentTypeInvalid,
          fileMissing: messages.kyc.fileMissing,
        });
        return reply.status(201).send(await kyc.uploadDocument(deps, user, { documentType: upload.field, bytes: upload.file.bytes }));
      },
    });

    app.get('/kyc/documents/:type/:id/link', {
      ...kycSchemas.user(
        {
          description: 'A signed link, valid 5 minutes, to the document; only its owner and admins get one.',
          params: z.object({ type: z.string().max(40), id: z.string().max(100) }),
          querystring: z.object({ disposition: z.enum(['inline', 'attachment']).optional().default('inline') }),
        },
        { 200: kycDocumentLink },
      ),
      handler: async (request) =>
        kyc.documentLink(deps, requireAuth(request).user, request.params.type, request.params.id, request.query.disposition),
    });

    app.get('/kyc/files/:id', {
      // The signature in the query is the credential: links are handed only to the owner and admins.
      config: { access: 'public' },
      schema: {
        tags: ['kyc'],
        params: z.object({ id: z.string().max(100) }),
        querystring: z.object({
          expires: z.coerce.number().int().nonnegative().max(1e11),
          disposition: z.enum(['inline', 'attachment']),
          sig: z.string().max(100),
        }),
      },
      // Missing or malformed signature parts are a 403 like a wrong signature, not a 400.
      attachValidation: true,
      handler: async (request, reply) => {
        if (request.validationError) throw new AppError('FORBIDDEN', messages.kyc.linkInvalid);
        const file = await kyc.readSignedFile(deps, { id: request.params.id, ...request.query });
        // A file the browser shows (an image or a PDF) is a document: the page headers, and a CSP of its own.
        return reply
          .headers(DOCUMENT_HEADERS)
          .header('content-type', file.contentType)
          .header('content-disposition', `${file.disposition}; filename="${file.filename}"`)
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
          .header('cross-origin-resource-policy', 'same-origin')
          .header('cache-control', 'private, no-store')
          .send(file.bytes);
      },
    });

    app.post('/kyc/submit', {
      ...kycSchemas.user({ body: kycSubmitBody }, { 200: userWithKycSchema }),
      handler: async (request) => show(await kyc.submitKyc(deps, requireAuth(request).user, request.body)),
    });

    app.get('/admin/pending', {
      ...adminUsersSchemas.admin({}, { 200: z.array(userWithKycSchema) }),
      handler: async () => deps.publicUsers(deps, await kyc.pendingKycUsers(deps)),
    });

    app.post('/admin/verify/:userId', {
      ...adminUsersSchemas.admin(
        {
          params: z.object({ userId: z.string().max(100) }),
          body: adminVerifyBody,
        },
        { 200: userWithKycSchema },
      ),
      handler: async (request) => show(await kyc.decideKyc(deps, requireAuth(request).user, request.params.userId, request.body)),
    });
  };

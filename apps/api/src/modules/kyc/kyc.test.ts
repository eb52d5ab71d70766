import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@terrafund/contracts';
import { jpeg, multipart, PNG_SIGNATURE, pdf, png, pngOfSize, type MultipartPart } from '../../../test/files';
import { kycBody } from '../../../test/kyc-fixtures';
import {
  apiCaller,
  bearer,
  createMemberAndAdmin,
  createUser,
  loginAs,
  randomId,
  rows,
  uniqueEmail,
  useTestApp,
} from '../../../test/test-app';
import { detectFileType } from '../../lib/file-type';
import { DOCUMENT_HEADERS } from '../../lib/security-headers';

const m = messages.kyc;
const MAX_BYTES = 5 * 1024 * 1024;
const FILE_URL = /^\/api\/kyc\/documents\/(idFront|idBack|proofOfAddress)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
const STORAGE_KEY = /^kyc\/[A-Za-z0-9_-]{32}$/;
const DOCUMENT_TYPES = ['idFront', 'idBack', 'proofOfAddress'] as const;
type DocumentType = (typeof DOCUMENT_TYPES)[number];
const invalidType = { message: m.invalidFileType, code: 'UNSUPPORTED_MEDIA_TYPE' };
const sessionExpired = { message: 'Session expired. Please login again.', code: 'UNAUTHENTICATED' };

type KycUser = {
  _id: string;
  email: string;
  kycStatus: string;
  kycVerified: boolean;
  kyc: null | {
    documents: string[];
    kycSubmittedAt: string | null;
    kycRejectionReason: string | null;
    kycReviewedAt: string | null;
    [field: string]: unknown;
  };
};
type Link = { url: string; expiresAt: string; contentType: string; documentType: string };

/** A date of birth `years` years before today (UTC), shifted by `days`. */
function birthDate(years: number, days = 0) {
  const today = new Date();
  const date = new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate() + days));
  return date.toISOString().slice(0, 10);
}

describe('KYC', () => {
  const ctx = useTestApp();
  let adminToken: string;
  let admin: Awaited<ReturnType<typeof createUser>>;

  beforeAll(async () => {
    ({ admin, adminToken } = await createMemberAndAdmin(ctx));
  });

  const call = apiCaller(() => ctx);

  async function newMember(overrides: Parameters<typeof createUser>[1] = {}) {
    const user = await createUser(ctx, overrides);
    return { user, token: await loginAs(ctx, user.email) };
  }

  const upload = (token: string | undefined, parts: MultipartPart[], headers: Record<string, string> = {}) => {
    const body = multipart(parts);
    return ctx.app.inject({
      method: 'POST',
      url: '/api/kyc/upload-document',
      payload: body.payload,
      headers: { 'content-type': body.contentType, ...(token ? bearer(token) : {}), ...headers },
    });
  };
  const uploadFile = (token: string | undefined, documentType: string, data: Buffer, filename = 'scan', contentType?: string) =>
    upload(token, [
      { name: 'documentType', value: documentType },
      { name: 'file', filename, contentType, data },
    ]);
  async function uploaded(token: string, documentType: DocumentType = 'idFront', data: Buffer = png({ seed: Math.random() * 255 })) {
    const response = await uploadFile(token, documentType, data, 'scan.png', 'image/png');
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ fileUrl: string }>().fileUrl;
  }
  const idOf = (fileUrl: string) => fileUrl.split('/').pop()!;
  /** What a passport submission needs: an ID front and a proof of address. */
  const passportDocuments = async (token: string) => [await uploaded(token, 'idFront'), await uploaded(token, 'proofOfAddress', pdf())];
  /** The bytes stored for a document. */
  async function storedBytes(fileUrl: string) {
    const [row] = await rows<{ storage_key: string }>(ctx, sql`select storage_key from kyc_documents where id = ${idOf(fileUrl)}`);
    return ctx.storage.files.get(row!.storage_key)!;
  }

  const documentCount = async () =>
    (await rows<{ n: number }>(ctx, sql`select count(*)::int as n from kyc_documents`))[0]!.n;
  const snapshot = async () => ({ keys: [...ctx.storage.files.keys()].sort(), documents: await documentCount() });
  async function expectNothingStored(before: Awaited<ReturnType<typeof snapshot>>) {
    expect(await snapshot()).toEqual(before);
  }

  const submit = (token: string | undefined, body: object) => call('POST', '/kyc/submit', token, body);
  const decide = (token: string | undefined, userId: string, body: object) => call('POST', `/admin/verify/${userId}`, token, body);
  const profile = async (token: string) => {
    const response = await call('GET', '/users/profile', token);
    expect(response.statusCode).toBe(200);
    return response.json<KycUser>();
  };
  const mailTo = async (email: string) => (await ctx.deliverMail()).filter((mail) => mail.to === email);

  /** A member with a pending KYC (a passport: an uploaded ID front and proof of address). */
  async function pendingMember() {
    const member = await newMember();
    const documents = await passportDocuments(member.token);
    const response = await submit(member.token, kycBody(documents));
    expect(response.statusCode, response.body).toBe(200);
    return { ...member, documents };
  }

  describe('POST /api/kyc/upload-document', () => {
    it.each(DOCUMENT_TYPES)('accepts a PNG and a JPEG as %s, stores it re-encoded as its type under a key without user data', async (documentType) => {
      const { user, token } = await newMember({ firstName: 'Uniquefirst', lastName: 'Uniquelast' });
      for (const [data, contentType] of [
        [png({ seed: 7 }), 'image/png'],
        [jpeg('scan'), 'image/jpeg'],
      ] as const) {
        const before = new Set(ctx.storage.files.keys());
        const response = await uploadFile(token, documentType, data, 'my passport.jpg', contentType);
        expect(response.statusCode, response.body).toBe(201);
        const body = response.json<{ fileUrl: string; documentType: string }>();
        expect(body).toEqual({ fileUrl: expect.stringMatching(FILE_URL), documentType });
        expect(FILE_URL.exec(body.fileUrl)![1]).toBe(documentType);

        const added = [...ctx.storage.files.keys()].filter((key) => !before.has(key));
        expect(added).toHaveLength(1);
        const key = added[0]!;
        const stored = ctx.storage.files.get(key)!;
        // Our own encoding of the same picture, in the type detected.
        expect(detectFileType(stored)).toBe(contentType);
        const [before_, after_] = [await sharp(data).metadata(), await sharp(stored).metadata()];
        expect([after_.width, after_.height]).toEqual([before_.width, before_.height]);
        expect(key).toMatch(STORAGE_KEY);
        for (const personal of [user.id, user.email, 'Uniquefirst', 'Uniquelast', 'passport', documentType]) {
          expect(key.toLowerCase()).not.toContain(personal.toLowerCase());
        }

        const [row] = await rows<{ user_id: string; document_type: string; storage_key: string; content_type: string; size_bytes: number }>(
          ctx,
          sql`select user_id, document_type, storage_key, content_type, size_bytes from kyc_documents where id = ${idOf(body.fileUrl)}`,
        );
        expect(row).toEqual({ user_id: user.id, document_type: documentType, storage_key: key, content_type: contentType, size_bytes: stored.length });
      }
    });

    it('decides the type from the bytes, not the name or declared type', async () => {
      const { token } = await newMember();
      const response = await uploadFile(token, 'idFront', png(), 'photo.pdf', 'application/pdf');
      expect(response.statusCode).toBe(201);
      const [row] = await rows<{ content_type: string }>(
        ctx,
        sql`select content_type from kyc_documents where id = ${idOf(response.json<{ fileUrl: string }>().fileUrl)}`,
      );
      expect(row!.content_type).toBe('image/png');
    });

    it('accepts a PDF as proof of address only', async () => {
      const { token } = await newMember();
      const accepted = await uploadFile(token, 'proofOfAddress', pdf(), 'bill.pdf', 'application/pdf');
      expect(accepted.statusCode, accepted.body).toBe(201);
      expect(accepted.json()).toEqual({ fileUrl: expect.stringMatching(/^\/api\/kyc\/documents\/proofOfAddress\//), documentType: 'proofOfAddress' });

      for (const documentType of ['idFront', 'idBack']) {
        const before = await snapshot();
        const refused = await uploadFile(token, documentType, pdf(), 'id.pdf', 'application/pdf');
        expect(refused.statusCode, documentType).toBe(415);
        expect(refused.json()).toEqual(invalidType);
        await expectNothingStored(before);
      }
    });

    const html = '<html><body><script>fetch("/api/users/profile")</script></body></html>';
    const refusedFiles: [string, Buffer, string, string][] = [
      ['a text file renamed .png', Buffer.from('just some text, not an image\n'), 'x.png', 'image/png'],
      ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'x.svg', 'image/svg+xml'],
      ['an SVG named .png', Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'), 'x.png', 'image/png'],
      ['an HTML file starting with the PNG signature', Buffer.concat([PNG_SIGNATURE, Buffer.from(html)]), 'x.png', 'image/png'],
      ['an HTML file starting with GIF89a', Buffer.from(`GIF89a${html}`), 'x.gif', 'image/gif'],
      ['a valid PNG carrying HTML in a text chunk', png({ comment: html }), 'x.png', 'image/png'],
      ['a truncated PNG (signature only)', Buffer.from(PNG_SIGNATURE), 'x.png', 'image/png'],
      ['a PNG cut before IEND', png().subarray(0, png().length - 12), 'x.png', 'image/png'],
      ['a JPEG without its end marker', jpeg().subarray(0, jpeg().length - 2), 'x.jpg', 'image/jpeg'],
      ['a GIF', Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0, 0, 0, 0x3b])]), 'x.gif', 'image/gif'],
    ];

    it.each(refusedFiles)('refuses %s with 415 and stores nothing', async (_name, data, filename, contentType) => {
      const { token } = await newMember();
      for (const documentType of DOCUMENT_TYPES) {
        const before = await snapshot();
        const response = await uploadFile(token, documentType, data, filename, contentType);
        expect(response.statusCode, documentType).toBe(415);
        expect(response.json()).toEqual(invalidType);
        await expectNothingStored(before);
      }
    });

    it('accepts a file of exactly 5 MB, and stores the picture without what was appended to it', async () => {
      const { token } = await newMember();
      const data = pngOfSize(MAX_BYTES);
      expect(data.length).toBe(5 * 1024 * 1024);
      const before = new Set(ctx.storage.files.keys());
      const response = await uploadFile(token, 'proofOfAddress', data, 'big.png', 'image/png');
      expect(response.statusCode, response.body).toBe(201);
      const added = [...ctx.storage.files.keys()].filter((key) => !before.has(key));
      expect(added).toHaveLength(1);
      const stored = ctx.storage.files.get(added[0]!)!;
      expect(detectFileType(stored)).toBe('image/png');
      // The 5 MB were a text chunk of padding: metadata, gone.
      expect(stored.length).toBeLessThan(10_000);
      expect(stored.includes(Buffer.from('xxxxxxxx'))).toBe(false);
    });

    it('refuses 5 MB + 1 byte with 413 and stores nothing', async () => {
      const { token } = await newMember();
      const data = pngOfSize(MAX_BYTES + 1);
      const before = await snapshot();
      const response = await uploadFile(token, 'proofOfAddress', data, 'big.png', 'image/png');
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({ message: 'File size must be less than 5MB', code: 'PAYLOAD_TOO_LARGE' });
      await expectNothingStored(before);
    });

    it('refuses a declared Content-Length far above the limit', async () => {
      const { token } = await newMember();
      const body = multipart([
        { name: 'documentType', value: 'idFront' },
        { name: 'file', filename: 'x.png', contentType: 'image/png', data: png() },
      ]);
      const before = await snapshot();
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/kyc/upload-document',
        payload: body.payload,
        headers: { 'content-type': body.contentType, 'content-length': String(100 * 1024 * 1024), ...bearer(token) },
      });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({ message: m.fileTooLarge, code: 'PAYLOAD_TOO_LARGE' });
      await expectNothingStored(before);
    });

    it('answers an oversized Content-Length before any of the body is sent', async () => {
      const { token } = await newMember();
      // The server is closed with the app (afterAll).
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      {
        const { port } = ctx.app.server.address() as AddressInfo;
        const head = await new Promise<string>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1');
          let received = '';
          const timer = setTimeout(() => {
            socket.destroy();
            reject(new Error(`no answer before the body was sent; got ${JSON.stringify(received)}`));
          }, 5_000);
          socket.on('error', reject);
          socket.on('data', (chunk) => {
            received += chunk.toString('latin1');
            if (received.includes('\r\n\r\n')) {
              clearTimeout(timer);
              socket.destroy();
              resolve(received);
            }
          });
          // Headers only: the 100 MB body never comes.
          socket.write(
            'POST /api/kyc/upload-document HTTP/1.1\r\nHost: localhost\r\n' +
              `Authorization: Bearer ${token}\r\n` +
              'Content-Type: multipart/form-data; boundary=xyz\r\n' +
              `Content-Length: ${100 * 1024 * 1024}\r\n\r\n`,
          );
        });
        expect(head).toMatch(/^HTTP\/1\.1 413 /);
      }
    });

    it('refuses a missing file, an empty file, and a missing or invalid documentType with 400', async () => {
      const { token } = await newMember();
      const before = await snapshot();
      const documentTypeError = {
        message: m.documentTypeInvalid,
        code: 'VALIDATION_ERROR',
        fields: { documentType: m.documentTypeInvalid },
      };
      const cases: [string, MultipartPart[], object][] = [
        ['no file', [{ name: 'documentType', value: 'idFront' }], { message: m.fileMissing, code: 'VALIDATION_ERROR', fields: { file: m.fileMissing } }],
        [
          'an empty file',
          [
            { name: 'documentType', value: 'idFront' },
            { name: 'file', filename: 'x.png', contentType: 'image/png', data: Buffer.alloc(0) },
          ],
          { message: m.fileMissing, code: 'VALIDATION_ERROR', fields: { file: m.fileMissing } },
        ],
        ['no documentType', [{ name: 'file', filename: 'x.png', contentType: 'image/png', data: png() }], documentTypeError],
        [
          'an unknown documentType',
          [
            { name: 'documentType', value: 'selfie' },
            { name: 'file', filename: 'x.png', contentType: 'image/png', data: png() },
          ],
          documentTypeError,
        ],
        [
          'an empty documentType',
          [
            { name: 'documentType', value: '' },
            { name: 'file', filename: 'x.png', contentType: 'image/png', data: png() },
          ],
          documentTypeError,
        ],
        [
          'a file under another field name',
          [
            { name: 'documentType', value: 'idFront' },
            { name: 'document', filename: 'x.png', contentType: 'image/png', data: png() },
          ],
          { message: m.fileMissing, code: 'VALIDATION_ERROR', fields: { file: m.fileMissing } },
        ],
        ['nothing at all', [], documentTypeError],
      ];
      for (const [name, parts, expected] of cases) {
        const response = await upload(token, parts);
        expect(response.statusCode, name).toBe(400);
        expect(response.json(), name).toEqual(expected);
      }
      await expectNothingStored(before);
    });

    it('refuses a body that is not multipart with a 4xx, never storing anything', async () => {
      const { token } = await newMember();
      const before = await snapshot();
      const attempts: InjectOptions[] = [
        { payload: { documentType: 'idFront', file: png().toString('base64') } },
        { payload: png(), headers: { 'content-type': 'image/png' } },
        { payload: 'documentType=idFront', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
        { payload: 'hello', headers: { 'content-type': 'text/plain' } },
        { payload: 'whatever', headers: { 'content-type': 'multipart/form-data' } },
        { payload: '', headers: { 'content-type': 'multipart/form-data; boundary=x' } },
      ];
      for (const attempt of attempts) {
        const response = await ctx.app.inject({
          method: 'POST',
          url: '/api/kyc/upload-document',
          ...attempt,
          headers: { ...attempt.headers, ...bearer(token) },
        });
        expect(response.statusCode, JSON.stringify(attempt.headers)).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, JSON.stringify(attempt.headers)).toBeLessThan(500);
        expect(response.json()).toMatchObject({ message: expect.any(String), code: expect.any(String) });
      }
      await expectNothingStored(before);
    });

    it('answers a malformed multipart body 400, never 500', async () => {
      const { token } = await newMember();
      const before = await snapshot();
      const whole = multipart(
        [
          { name: 'documentType', value: 'idFront' },
          { name: 'file', filename: 'x.png', contentType: 'image/png', data: png() },
        ],
        'b0undary',
      ).payload;
      const bodies: [string, string | Buffer, string][] = [
        ['a part cut short', '--x\r\nbroken', 'multipart/form-data; boundary=x'],
        ['no closing boundary', whole.subarray(0, whole.length - 14), 'multipart/form-data; boundary=b0undary'],
        ['a file cut in the middle', whole.subarray(0, whole.length - 40), 'multipart/form-data; boundary=b0undary'],
        ['a boundary that never appears', 'garbage without any boundary', 'multipart/form-data; boundary=x'],
        ['no boundary parameter', whole, 'multipart/form-data'],
        ['a header line far too long', `--x\r\nX: ${'a'.repeat(100_000)}\r\n\r\nv\r\n--x--\r\n`, 'multipart/form-data; boundary=x'],
      ];
      for (const [name, payload, contentType] of bodies) {
        const response = await ctx.app.inject({
          method: 'POST',
          url: '/api/kyc/upload-document',
          payload,
          headers: { 'content-type': contentType, ...bearer(token) },
        });
        expect(response.statusCode, `${name}: ${response.body}`).toBe(400);
        expect(response.json(), name).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
      }
      await expectNothingStored(before);
    });

    it('refuses a request carrying two files with 400 and stores neither', async () => {
      const { token } = await newMember();
      const before = await snapshot();
      const response = await upload(token, [
        { name: 'documentType', value: 'idFront' },
        { name: 'file', filename: 'a.png', contentType: 'image/png', data: png({ seed: 1 }) },
        { name: 'file', filename: 'b.png', contentType: 'image/png', data: png({ seed: 2 }) },
      ]);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
      await expectNothingStored(before);
    });

    it('is for signed-in callers only', async () => {
      const before = await snapshot();
      const anonymous = await uploadFile(undefined, 'idFront', png(), 'x.png', 'image/png');
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual(sessionExpired);
      const badToken = await uploadFile('not-a-token', 'idFront', png(), 'x.png', 'image/png');
      expect(badToken.statusCode).toBe(401);
      await expectNothingStored(before);
    });
  });

  describe('signed document links', () => {
    let owner: Awaited<ReturnType<typeof newMember>>;
    let stranger: Awaited<ReturnType<typeof newMember>>;
    let pngUrl: string;
    let pngBytes: Buffer;
    let strangerUrl: string;

    beforeAll(async () => {
      owner = await newMember();
      stranger = await newMember();
      pngBytes = png({ seed: 42, width: 3, height: 3 });
      pngUrl = await uploaded(owner.token, 'idFront', pngBytes);
      // What is served is what was stored: our re-encoding of the picture.
      pngBytes = await storedBytes(pngUrl);
      strangerUrl = await uploaded(stranger.token, 'idFront', png({ seed: 43 }));
    });

    const linkFor = (token: string | undefined, fileUrl: string, query = '') => call('GET', `${fileUrl.replace(/^\/api/, '')}/link${query}`, token);
    async function link(token: string, fileUrl: string, query = '') {
      const response = await linkFor(token, fileUrl, query);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<Link>();
    }
    const fetchUrl = (url: string) => ctx.app.inject({ method: 'GET', url });

    it('gives the owner a link valid for 5 minutes that serves the stored bytes safely', async () => {
      const now = ctx.clock.now().getTime();
      const answer = await link(owner.token, pngUrl);
      expect(answer).toEqual({ url: expect.stringMatching(/^\/api\/kyc\/files\//), expiresAt: expect.any(String), contentType: 'image/png', documentType: 'idFront' });
      const expiresAt = Date.parse(answer.expiresAt);
      expect(expiresAt).toBeGreaterThan(now + 5 * 60_000 - 1_000);
      expect(expiresAt).toBeLessThanOrEqual(now + 5 * 60_000);
      // The link names the document by its id only, never the storage key.
      expect(answer.url).toContain(idOf(pngUrl));
      for (const key of ctx.storage.files.keys()) expect(answer.url).not.toContain(key.split('/')[1]);

      const file = await fetchUrl(answer.url);
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(await storedBytes(pngUrl))).toBe(true);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.headers['content-disposition']).toBe('inline; filename="idFront.png"');
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      for (const [name, value] of Object.entries(DOCUMENT_HEADERS)) expect(file.headers[name], name).toBe(value);
      const csp = String(file.headers['content-security-policy']);
      expect(csp).toContain('sandbox');
      expect(csp).toContain("default-src 'none'");
      expect(String(file.headers['cache-control'])).toMatch(/no-store/);
    });

    it('serves a JPEG and a PDF with their own types', async () => {
      const jpegBytes = jpeg('back side');
      const pdfBytes = pdf();
      const jpegUrl = await uploaded(owner.token, 'idBack', jpegBytes);
      const pdfUrl = await uploaded(owner.token, 'proofOfAddress', pdfBytes);
      // A picture is served as we re-encoded it; a PDF exactly as sent.
      expect((await storedBytes(pdfUrl)).equals(pdfBytes)).toBe(true);
      for (const [fileUrl, bytes, type, filename] of [
        [jpegUrl, await storedBytes(jpegUrl), 'image/jpeg', 'idBack.jpg'],
        [pdfUrl, pdfBytes, 'application/pdf', 'proofOfAddress.pdf'],
      ] as const) {
        const answer = await link(owner.token, fileUrl);
        expect(answer.contentType).toBe(type);
        const file = await fetchUrl(answer.url);
        expect(file.statusCode).toBe(200);
        expect(file.rawPayload.equals(bytes)).toBe(true);
        expect(file.headers['content-type']).toBe(type);
        expect(file.headers['content-disposition']).toBe(`inline; filename="${filename}"`);
        expect(file.headers['x-content-type-options']).toBe('nosniff');
      }
    });

    it('gives an attachment link on request', async () => {
      const answer = await link(owner.token, pngUrl, '?disposition=attachment');
      expect(answer.url).toContain('disposition=attachment');
      const file = await fetchUrl(answer.url);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-disposition']).toBe('attachment; filename="idFront.png"');
      expect(file.rawPayload.equals(pngBytes)).toBe(true);
      expect((await linkFor(owner.token, pngUrl, '?disposition=evil')).statusCode).toBe(400);
    });

    it('gives an admin a link to any document', async () => {
      const answer = await link(adminToken, pngUrl);
      const file = await fetchUrl(answer.url);
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(pngBytes)).toBe(true);
    });

    it('tells another member the document does not exist, and an anonymous caller to sign in', async () => {
      const other = await linkFor(stranger.token, pngUrl);
      expect(other.statusCode).toBe(404);
      expect(other.json()).toEqual({ message: messages.common.notFound, code: 'NOT_FOUND' });
      expect(other.body).not.toMatch(/files|sig=/);
      expect((await linkFor(stranger.token, pngUrl, '?disposition=attachment')).statusCode).toBe(404);

      const anonymous = await linkFor(undefined, pngUrl);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual(sessionExpired);
      expect(anonymous.body).not.toMatch(/files|sig=/);
    });

    it('answers 404 for a wrong type segment, an unknown id and a malformed id', async () => {
      const id = idOf(pngUrl);
      for (const path of [
        `/kyc/documents/idBack/${id}/link`,
        `/kyc/documents/proofOfAddress/${id}/link`,
        `/kyc/documents/passport/${id}/link`,
        `/kyc/documents/IDFRONT/${id}/link`,
        `/kyc/documents/idFront/${randomId()}/link`,
        '/kyc/documents/idFront/not-a-uuid/link',
        `/kyc/documents/idFront/${id}x/link`,
        "/kyc/documents/idFront/1'%20or%20'1'='1/link",
      ]) {
        for (const token of [owner.token, adminToken]) {
          const response = await call('GET', path, token);
          expect(response.statusCode, path).toBe(404);
          expect(response.json()).toEqual({ message: messages.common.notFound, code: 'NOT_FOUND' });
        }
      }
    });

    it('refuses a tampered, incomplete or redirected link with 403', async () => {
      const answer = await link(owner.token, pngUrl);
      const url = new URL(answer.url, 'http://x');
      const id = idOf(pngUrl);
      const sig = url.searchParams.get('sig')!;
      const expires = Number(url.searchParams.get('expires'));
      const withParams = (path: string, params: Record<string, string | undefined>) => {
        const query = new URLSearchParams();
        for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, value);
        return `${path}?${query.toString()}`;
      };
      const base = { expires: String(expires), disposition: 'inline', sig };
      const flipped = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
      const forged = [
        ['tampered signature', withParams(url.pathname, { ...base, sig: flipped })],
        ['signature of another length', withParams(url.pathname, { ...base, sig: `${sig}A` })],
        ['empty signature', withParams(url.pathname, { ...base, sig: '' })],
        ['missing signature', withParams(url.pathname, { ...base, sig: undefined })],
        ['changed id (another member’s file)', withParams(`/api/kyc/files/${idOf(strangerUrl)}`, base)],
        ['changed id (unknown)', withParams(`/api/kyc/files/${randomId()}`, base)],
        ['malformed id', withParams('/api/kyc/files/..%2F..%2Fetc%2Fpasswd', base)],
        ['extended expiry', withParams(url.pathname, { ...base, expires: String(expires + 3600) })],
        ['shortened expiry', withParams(url.pathname, { ...base, expires: String(expires - 1) })],
        ['expiry not a number', withParams(url.pathname, { ...base, expires: 'tomorrow' })],
        ['missing expiry', withParams(url.pathname, { ...base, expires: undefined })],
        ['changed disposition', withParams(url.pathname, { ...base, disposition: 'attachment' })],
        ['unknown disposition', withParams(url.pathname, { ...base, disposition: 'evil' })],
        ['missing disposition', withParams(url.pathname, { ...base, disposition: undefined })],
        ['no query at all', url.pathname],
      ];
      expect(url.pathname).toBe(`/api/kyc/files/${id}`);
      for (const [name, forgedUrl] of forged) {
        const response = await fetchUrl(forgedUrl!);
        expect(response.statusCode, name).toBe(403);
        expect(response.json(), name).toEqual({ message: m.linkInvalid, code: 'FORBIDDEN' });
        expect(response.rawPayload.includes(pngBytes), name).toBe(false);
      }
      // The genuine link still works, and a bearer token is neither needed nor a substitute for the signature.
      expect((await fetchUrl(answer.url)).statusCode).toBe(200);
      const withToken = await ctx.app.inject({ method: 'GET', url: url.pathname, headers: bearer(owner.token) });
      expect(withToken.statusCode).toBe(403);
    });

    it('expires 5 minutes after it was handed out', async () => {
      const answer = await link(owner.token, pngUrl);
      ctx.clock.advance(5 * 60_000 - 1_000);
      expect((await fetchUrl(answer.url)).statusCode).toBe(200);
      ctx.clock.advance(2_000);
      const expired = await fetchUrl(answer.url);
      expect(expired.statusCode).toBe(403);
      expect(expired.json()).toEqual({ message: m.linkInvalid, code: 'FORBIDDEN' });
      // A fresh link works again.
      expect((await fetchUrl((await link(owner.token, pngUrl)).url)).statusCode).toBe(200);
    });

    it('answers an expired link 403 exactly 5 min + 1 s later', async () => {
      const answer = await link(owner.token, pngUrl);
      ctx.clock.advance(5 * 60_000 + 1_000);
      expect((await fetchUrl(answer.url)).statusCode).toBe(403);
    });
  });

  describe('POST /api/kyc/submit', () => {
    it('submits with fileUrl strings: pending, with the KYC object, seen in the profile', async () => {
      const { user, token } = await newMember();
      const front = await uploaded(token, 'idFront');
      const back = await uploaded(token, 'idBack', jpeg());
      const proof = await uploaded(token, 'proofOfAddress', pdf());
      const response = await submit(token, kycBody([front, back, proof], { state: 'Île-de-France' }));
      expect(response.statusCode, response.body).toBe(200);
      const submitted = response.json<KycUser>();
      expect(submitted).toMatchObject({ _id: user.id, kycStatus: 'pending', kycVerified: false });
      expect(submitted.kyc).toEqual({
        dateOfBirth: '1990-04-12',
        nationality: 'FR',
        address: '12 Rue de la Paix',
        city: 'Paris',
        state: 'Île-de-France',
        postalCode: '75002',
        country: 'FR',
        idType: 'passport',
        idNumber: 'X1234567',
        kycSubmittedAt: ctx.clock.now().toISOString(),
        kycRejectionReason: null,
        kycReviewedAt: null,
        documents: [front, back, proof],
      });
      expect(await profile(token)).toEqual(submitted);
    });

    it('accepts documents as {url, type} objects, and without a state', async () => {
      const { token } = await newMember();
      const front = await uploaded(token, 'idFront');
      const proof = await uploaded(token, 'proofOfAddress', jpeg());
      const { state: _state, ...withoutState } = kycBody([
        { url: front, type: 'idFront' },
        { url: proof, type: 'proofOfAddress' },
      ]);
      const response = await submit(token, withoutState);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<KycUser>();
      expect(body.kycStatus).toBe('pending');
      expect(body.kyc).toMatchObject({ state: '', documents: [front, proof] });
    });

    it('defaults idType to passport and counts a document listed twice once', async () => {
      const { token } = await newMember();
      const [front, proof] = await passportDocuments(token);
      const { idType: _idType, ...body } = kycBody([front, front, proof]);
      const response = await submit(token, body);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<KycUser>().kyc).toMatchObject({ idType: 'passport', documents: [front, proof] });
    });

    describe('refusals leave the status unchanged', () => {
      let member: Awaited<ReturnType<typeof newMember>>;
      let front: string;

      beforeAll(async () => {
        member = await newMember();
        front = await uploaded(member.token, 'idFront');
      });

      async function expectRefused(body: object, status: number, expected: object) {
        const response = await submit(member.token, body);
        expect(response.statusCode, response.body).toBe(status);
        expect(response.json()).toMatchObject(expected);
        const after = await profile(member.token);
        expect(after.kycStatus).toBe('not_started');
        expect(after.kyc).toBeNull();
        return response;
      }

      const stepFields = {
        personal: ['firstName', 'lastName', 'dateOfBirth', 'nationality'],
        address: ['address', 'city', 'postalCode', 'country'],
        identity: ['idNumber'],
      };
      for (const [step, fields] of Object.entries(stepFields)) {
        for (const field of fields) {
          it(`${step} step: a missing or blank ${field}`, async () => {
            const missing: Record<string, unknown> = kycBody([front]);
            delete missing[field];
            const expected = { message: m.fillAllFields, code: 'VALIDATION_ERROR', fields: { [field]: m.fillAllFields } };
            await expectRefused(missing, 400, expected);
            await expectRefused(kycBody([front], { [field]: '' }), 400, expected);
            await expectRefused(kycBody([front], { [field]: null }), 400, expected);
            if (!['nationality', 'country', 'dateOfBirth'].includes(field)) {
              await expectRefused(kycBody([front], { [field]: '   ' }), 400, expected);
            }
          });
        }
      }

      it('identity step: an unknown idType, and unknown countries', async () => {
        await expectRefused(kycBody([front], { idType: 'library_card' }), 400, { code: 'VALIDATION_ERROR', fields: { idType: m.fillAllFields } });
        await expectRefused(kycBody([front], { nationality: 'XX' }), 400, { code: 'VALIDATION_ERROR', fields: { nationality: m.fillAllFields } });
        await expectRefused(kycBody([front], { country: 'Narnia' }), 400, { code: 'VALIDATION_ERROR', fields: { country: m.fillAllFields } });
      });

      it('documents step: none, or more than three', async () => {
        const { documents: _documents, ...missing } = kycBody([front]);
        await expectRefused(missing, 400, { code: 'VALIDATION_ERROR', fields: { documents: m.documentsRequired } });
        await expectRefused(kycBody([]), 400, { code: 'VALIDATION_ERROR', fields: { documents: m.documentsRequired } });
        await expectRefused(kycBody([front, front, front, front]), 400, { code: 'VALIDATION_ERROR', fields: { documents: m.tooManyDocuments } });
      });

      it('without confirmed: true', async () => {
        const expected = { message: m.confirmRequired, code: 'VALIDATION_ERROR', fields: { confirmed: m.confirmRequired } };
        const { confirmed: _confirmed, ...missing } = kycBody([front]);
        await expectRefused(missing, 400, expected);
        await expectRefused(kycBody([front], { confirmed: false }), 400, expected);
        await expectRefused(kycBody([front], { confirmed: 'true' }), 400, expected);
        await expectRefused(kycBody([front], { confirmed: 1 }), 400, expected);
      });

      it('under 18, or a date of birth that is not a date', async () => {
        const tooYoung = { code: 'VALIDATION_ERROR', fields: { dateOfBirth: m.tooYoung } };
        await expectRefused(kycBody([front], { dateOfBirth: birthDate(17) }), 400, { message: m.tooYoung, ...tooYoung });
        await expectRefused(kycBody([front], { dateOfBirth: birthDate(18, 1) }), 400, tooYoung);
        await expectRefused(kycBody([front], { dateOfBirth: birthDate(0) }), 400, tooYoung);
        for (const bad of ['12/04/1990', '1990-13-01', '1990-4-12', 'yesterday']) {
          await expectRefused(kycBody([front], { dateOfBirth: bad }), 400, { code: 'VALIDATION_ERROR', fields: { dateOfBirth: expect.any(String) } });
        }
      });

      it('a document of another member, an unknown document or a url that names no document', async () => {
        const other = await newMember();
        const theirs = await uploaded(other.token, 'idFront');
        const expected = { message: m.documentNotFound, code: 'VALIDATION_ERROR', fields: { documents: m.documentNotFound } };
        await expectRefused(kycBody([theirs]), 400, expected);
        await expectRefused(kycBody([front, theirs]), 400, expected);
        await expectRefused(kycBody([{ url: theirs, type: 'idFront' }]), 400, expected);
        await expectRefused(kycBody([`/api/kyc/documents/idFront/${randomId()}`]), 400, expected);
        await expectRefused(kycBody(['https://evil.example/passport.png']), 400, expected);
        await expectRefused(kycBody(['../../etc/passwd']), 400, expected);
        // The other member's file stays theirs: still not listed anywhere for this member.
        expect((await profile(other.token)).kycStatus).toBe('not_started');
      });

      it('anonymous', async () => {
        const response = await submit(undefined, kycBody([front]));
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual(sessionExpired);
      });
    });

    it('refuses a resubmission while pending and after approval, allows one after rejection', async () => {
      const member = await pendingMember();
      const second = await passportDocuments(member.token);

      const whilePending = await submit(member.token, kycBody(second));
      expect(whilePending.statusCode).toBe(409);
      expect(whilePending.json()).toEqual({ message: m.cannotSubmit, code: 'CONFLICT' });
      expect((await profile(member.token)).kyc!.documents).toEqual(member.documents);

      expect((await decide(adminToken, member.user.id, { verified: false, rejectionReason: 'The photo is blurred' })).statusCode).toBe(200);
      const rejected = await profile(member.token);
      expect(rejected.kycStatus).toBe('rejected');
      expect(rejected.kyc!.kycRejectionReason).toBe('The photo is blurred');

      ctx.clock.advance(60_000);
      const again = await submit(member.token, kycBody(second, { idNumber: 'Y7654321' }));
      expect(again.statusCode, again.body).toBe(200);
      const resubmitted = again.json<KycUser>();
      expect(resubmitted.kycStatus).toBe('pending');
      expect(resubmitted.kyc).toMatchObject({
        idNumber: 'Y7654321',
        documents: second,
        kycSubmittedAt: ctx.clock.now().toISOString(),
        kycRejectionReason: null,
        kycReviewedAt: null,
      });

      expect((await decide(adminToken, member.user.id, { verified: true })).statusCode).toBe(200);
      const afterApproval = await submit(member.token, kycBody(second));
      expect(afterApproval.statusCode).toBe(409);
      expect(afterApproval.json()).toEqual({ message: m.cannotSubmit, code: 'CONFLICT' });
      expect(await profile(member.token)).toMatchObject({ kycStatus: 'approved', kycVerified: true });
    });
  });

  describe('admin decisions', () => {
    it('approves: approved and verified, the member is e-mailed by Terrafund', async () => {
      const member = await pendingMember();
      await ctx.deliverMail();
      const response = await decide(adminToken, member.user.id, { verified: true });
      expect(response.statusCode, response.body).toBe(200);
      const decided = response.json<KycUser>();
      expect(decided).toMatchObject({ _id: member.user.id, kycStatus: 'approved', kycVerified: true });
      expect(decided.kyc).toMatchObject({ kycRejectionReason: null, kycReviewedAt: ctx.clock.now().toISOString(), documents: member.documents });
      expect(await profile(member.token)).toMatchObject({ kycStatus: 'approved', kycVerified: true });

      const mail = await mailTo(member.user.email);
      expect(mail).toHaveLength(1);
      expect(mail[0]!.subject).toContain('Terrafund');
      expect(mail[0]!.subject).toMatch(/verified/i);
      expect(mail[0]!.text).toContain('Terrafund');
      expect(mail[0]!.text).toContain('https://app.terrafund.test/wallet');
    });

    it('needs a reason to reject, and the member sees it in the profile and the mail', async () => {
      const member = await pendingMember();
      await ctx.deliverMail();
      for (const body of [{ verified: false }, { verified: false, rejectionReason: '' }, { verified: false, rejectionReason: '   ' }]) {
        const refused = await decide(adminToken, member.user.id, body);
        expect(refused.statusCode, JSON.stringify(body)).toBe(400);
        expect(refused.json()).toEqual({
          message: 'Please provide a rejection reason',
          code: 'VALIDATION_ERROR',
          fields: { rejectionReason: 'Please provide a rejection reason' },
        });
      }
      expect((await profile(member.token)).kycStatus).toBe('pending');
      expect(await mailTo(member.user.email)).toEqual([]);

      const reason = 'The proof of address is older than 3 months <b>';
      const response = await decide(adminToken, member.user.id, { verified: false, rejectionReason: `  ${reason}  ` });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ kycStatus: 'rejected', kycVerified: false, kyc: { kycRejectionReason: reason } });
      const seen = await profile(member.token);
      expect(seen).toMatchObject({ kycStatus: 'rejected', kycVerified: false });
      expect(seen.kyc!.kycRejectionReason).toBe(reason);

      const mail = await mailTo(member.user.email);
      expect(mail).toHaveLength(1);
      expect(mail[0]!.subject).toContain('Terrafund');
      expect(mail[0]!.text).toContain(reason);
      expect(mail[0]!.html).toContain('The proof of address is older than 3 months &lt;b&gt;');
      expect(mail[0]!.html).not.toContain('<b>');
    });

    it('refuses a member (even on their own KYC) with 403 and an anonymous caller with 401', async () => {
      const member = await pendingMember();
      const other = await newMember();
      for (const [token, userId] of [
        [member.token, member.user.id],
        [other.token, member.user.id],
      ] as const) {
        for (const body of [{ verified: true }, { verified: false, rejectionReason: 'no' }]) {
          const response = await decide(token, userId, body);
          expect(response.statusCode).toBe(403);
          expect(response.json()).toEqual({ message: messages.auth.forbidden, code: 'FORBIDDEN' });
        }
      }
      const anonymous = await decide(undefined, member.user.id, { verified: true });
      expect(anonymous.statusCode).toBe(401);
      expect(await profile(member.token)).toMatchObject({ kycStatus: 'pending', kycVerified: false });
      expect(await mailTo(member.user.email)).toEqual([]);
    });

    it('refuses an admin deciding their own KYC with 403; another admin may', async () => {
      const selfAdmin = await newMember({ role: 'admin', email: uniqueEmail('selfadmin') });
      expect((await submit(selfAdmin.token, kycBody(await passportDocuments(selfAdmin.token)))).statusCode).toBe(200);
      for (const body of [{ verified: true }, { verified: false, rejectionReason: 'mine' }]) {
        const response = await decide(selfAdmin.token, selfAdmin.user.id, body);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ message: messages.auth.forbidden, code: 'FORBIDDEN' });
      }
      expect((await profile(selfAdmin.token)).kycStatus).toBe('pending');
      expect((await decide(adminToken, selfAdmin.user.id, { verified: true })).statusCode).toBe(200);
    });

    it('answers 409 for a KYC that is not pending', async () => {
      const notStarted = await newMember();
      const approved = await pendingMember();
      expect((await decide(adminToken, approved.user.id, { verified: true })).statusCode).toBe(200);
      const rejected = await pendingMember();
      expect((await decide(adminToken, rejected.user.id, { verified: false, rejectionReason: 'blurry' })).statusCode).toBe(200);
      await ctx.deliverMail();

      for (const [target, status] of [
        [notStarted, 'not_started'],
        [approved, 'approved'],
        [rejected, 'rejected'],
      ] as const) {
        for (const body of [{ verified: true }, { verified: false, rejectionReason: 'again' }]) {
          const response = await decide(adminToken, target.user.id, body);
          expect(response.statusCode, `${status} ${JSON.stringify(body)}`).toBe(409);
          expect(response.json()).toEqual({ message: m.notPending, code: 'CONFLICT' });
        }
        expect((await profile(target.token)).kycStatus).toBe(status);
        expect(await mailTo(target.user.email)).toEqual([]);
      }
    });

    it('answers 404 for an unknown or malformed user id and 400 for a body without a decision', async () => {
      for (const id of [randomId(), 'not-a-uuid', '123', "1'%20or%20'1'%3D'1", 'a'.repeat(100)]) {
        const response = await decide(adminToken, id, { verified: true });
        expect(response.statusCode, id).toBe(404);
        expect(response.json()).toEqual({ message: messages.users.notFound, code: 'NOT_FOUND' });
      }
      const member = await pendingMember();
      for (const body of [{}, { verified: 'yes' }, { rejectionReason: 'x' }]) {
        const response = await decide(adminToken, member.user.id, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
      }
      expect((await profile(member.token)).kycStatus).toBe('pending');
    });

    it('records each decision in the audit log shown on the admin user detail', async () => {
      const member = await pendingMember();
      const other = await createUser(ctx, { role: 'admin', email: uniqueEmail('admin2'), firstName: 'Otto', lastName: 'Second' });
      const otherToken = await loginAs(ctx, other.email);

      const rejectedAt = ctx.clock.now().toISOString();
      expect((await decide(otherToken, member.user.id, { verified: false, rejectionReason: 'Expired ID' })).statusCode).toBe(200);
      ctx.clock.advance(60_000);
      expect((await submit(member.token, kycBody(await passportDocuments(member.token)))).statusCode).toBe(200);
      ctx.clock.advance(60_000);
      const approvedAt = ctx.clock.now().toISOString();
      expect((await decide(adminToken, member.user.id, { verified: true })).statusCode).toBe(200);

      const detail = await call('GET', `/admin/users/${member.user.id}`, adminToken);
      expect(detail.statusCode, detail.body).toBe(200);
      const body = detail.json<{ user: KycUser; auditLog: unknown[] }>();
      expect(body.user).toMatchObject({ _id: member.user.id, kycStatus: 'approved' });
      expect(body.auditLog).toEqual([
        {
          _id: expect.any(String),
          action: 'kyc.approved',
          actor: { _id: admin.id, firstName: admin.firstName, lastName: admin.lastName, email: admin.email },
          targetType: 'user',
          targetId: member.user.id,
          before: { kycStatus: 'pending', kycVerified: false },
          after: { kycStatus: 'approved', kycVerified: true },
          createdAt: approvedAt,
        },
        {
          _id: expect.any(String),
          action: 'kyc.rejected',
          actor: { _id: other.id, firstName: 'Otto', lastName: 'Second', email: other.email },
          targetType: 'user',
          targetId: member.user.id,
          before: { kycStatus: 'pending', kycVerified: false },
          after: { kycStatus: 'rejected', kycVerified: false, rejectionReason: 'Expired ID' },
          createdAt: rejectedAt,
        },
      ]);

      // A refused decision leaves no trace.
      expect((await decide(adminToken, member.user.id, { verified: true })).statusCode).toBe(409);
      const again = await call('GET', `/admin/users/${member.user.id}`, adminToken);
      expect(again.json<{ auditLog: unknown[] }>().auditLog).toHaveLength(2);
    });
  });

  describe('GET /api/admin/pending', () => {
    it('lists pending users only, oldest submission first, with their KYC object', async () => {
      const a = await newMember();
      const b = await newMember();
      const c = await newMember();
      const notStarted = await newMember();
      const files = new Map<string, string[]>();
      for (const member of [a, b, c]) files.set(member.user.id, await passportDocuments(member.token));
      // Submitted in the order c, a, b, which is not the order of creation.
      for (const member of [c, a, b]) {
        ctx.clock.advance(1_000);
        expect((await submit(member.token, kycBody(files.get(member.user.id)!))).statusCode).toBe(200);
      }
      const approved = await pendingMember();
      expect((await decide(adminToken, approved.user.id, { verified: true })).statusCode).toBe(200);
      const rejected = await pendingMember();
      expect((await decide(adminToken, rejected.user.id, { verified: false, rejectionReason: 'no' })).statusCode).toBe(200);

      const response = await call('GET', '/admin/pending', adminToken);
      expect(response.statusCode).toBe(200);
      const listed = response.json<KycUser[]>();
      expect(listed.every((u) => u.kycStatus === 'pending' && u.kyc !== null)).toBe(true);
      const submittedAt = listed.map((u) => Date.parse(u.kyc!.kycSubmittedAt!));
      expect(submittedAt).toEqual([...submittedAt].sort((x, y) => x - y));
      const ours = listed.filter((u) => [a, b, c].some((member) => member.user.id === u._id));
      expect(ours.map((u) => u._id)).toEqual([c.user.id, a.user.id, b.user.id]);
      expect(ours[0]!.kyc!.documents).toEqual(files.get(c.user.id));
      const ids = listed.map((u) => u._id);
      for (const absent of [notStarted, approved, rejected]) expect(ids).not.toContain(absent.user.id);
      expect(response.body).not.toMatch(/passwordHash|\$argon2|storage_?key/i);
    });

    it('is for admins only', async () => {
      const { token } = await newMember();
      expect((await call('GET', '/admin/pending', token)).statusCode).toBe(403);
      expect((await call('GET', '/admin/pending')).statusCode).toBe(401);
    });
  });
});

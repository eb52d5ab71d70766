import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { KYC_MAX_UPLOADS_PER_DAY, messages, type IdType, type KycDocumentType } from '@terrafund/contracts';
import { multipart, pdf, png } from '../../../test/files';
import { kycBody } from '../../../test/kyc-fixtures';
import { bearer, createUser, loginAs, rows, useTestApp } from '../../../test/test-app';
import { StorageUnavailableError } from '../../lib/storage';

const m = messages.kyc;

/** A camera JPEG: EXIF with the owner's name and a GPS position, and an orientation tag (turned a quarter). */
async function cameraJpeg() {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Copyright: 'Jane Doe, Camera Serial 4471-XZ' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2406/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 764/100' },
    })
    .toBuffer();
}
/** The EXIF tag that points at the GPS block (0x8825, little-endian as sharp writes it). */
const GPS_POINTER = Buffer.from([0x25, 0x88]);

/** The KYC upload rules of issue 12: a daily limit, the documents each ID type needs, and pictures without metadata. */
describe('KYC uploads', () => {
  const ctx = useTestApp();

  async function member() {
    const user = await createUser(ctx);
    return { user, token: await loginAs(ctx, user.email) };
  }

  const upload = (token: string, documentType: KycDocumentType, data: Buffer = png({ seed: Math.floor(Math.random() * 255) })) => {
    const body = multipart([
      { name: 'documentType', value: documentType },
      { name: 'file', filename: 'scan', contentType: 'application/octet-stream', data },
    ]);
    return ctx.app.inject({ method: 'POST', url: '/api/kyc/upload-document', payload: body.payload, headers: { 'content-type': body.contentType, ...bearer(token) } });
  };
  async function uploaded(token: string, documentType: KycDocumentType, data?: Buffer) {
    const response = await upload(token, documentType, data);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ fileUrl: string }>().fileUrl;
  }
  const documentsOf = async (userId: string) =>
    (await rows<{ n: number }>(ctx, sql`select count(*)::int as n from kyc_documents where user_id = ${userId}`))[0]!.n;
  const submit = (token: string, body: object) => ctx.app.inject({ method: 'POST', url: '/api/kyc/submit', payload: body, headers: bearer(token) });
  const statusOf = async (token: string) =>
    (await ctx.app.inject({ method: 'GET', url: '/api/users/profile', headers: bearer(token) })).json<{ kycStatus: string }>().kycStatus;

  describe('at most 20 documents a day', () => {
    it('refuses the 21st upload of 24 hours with 429 and a clear message, stores nothing, and accepts again a day later', async () => {
      const { user, token } = await member();
      for (let i = 0; i < KYC_MAX_UPLOADS_PER_DAY; i += 1) {
        await uploaded(token, (['idFront', 'idBack', 'proofOfAddress'] as const)[i % 3]!);
        ctx.clock.advance(60_000);
      }
      const files = ctx.storage.files.size;
      const refused = await upload(token, 'proofOfAddress', pdf());
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ message: m.uploadLimit(KYC_MAX_UPLOADS_PER_DAY), code: 'RATE_LIMITED' });
      expect(refused.json().message).toBe('You can upload at most 20 documents a day. Please try again tomorrow.');
      // The first upload leaves the window 24 h after it was made: 20 minutes ago, so in 23 h 40 min.
      expect(refused.json().retryAfter).toBe(24 * 3600 - 20 * 60);
      expect(refused.headers['retry-after']).toBe(String(24 * 3600 - 20 * 60));
      expect(await documentsOf(user.id)).toBe(KYC_MAX_UPLOADS_PER_DAY);
      expect(ctx.storage.files.size).toBe(files);

      // Another member is not concerned.
      const other = await member();
      await uploaded(other.token, 'idFront');

      ctx.clock.advance(24 * 3600 * 1000 - 20 * 60_000);
      await uploaded(token, 'idFront');
      expect(await documentsOf(user.id)).toBe(KYC_MAX_UPLOADS_PER_DAY + 1);
    });

    it('lets exactly 20 of 25 simultaneous uploads through', async () => {
      const { user, token } = await member();
      const responses = await Promise.all(Array.from({ length: 25 }, (_, i) => upload(token, 'idFront', png({ seed: i }))));
      expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(KYC_MAX_UPLOADS_PER_DAY);
      expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(5);
      expect(await documentsOf(user.id)).toBe(KYC_MAX_UPLOADS_PER_DAY);
    });
  });

  describe('every document the ID type needs', () => {
    const needs: Record<IdType, KycDocumentType[]> = {
      passport: ['idFront', 'proofOfAddress'],
      driver_license: ['idFront', 'idBack', 'proofOfAddress'],
      national_id: ['idFront', 'idBack', 'proofOfAddress'],
    };

    it.each(Object.entries(needs))('refuses a %s submission missing any of its documents with 400, and takes the full set', async (idType, required) => {
      const { token } = await member();
      const urls = {} as Record<KycDocumentType, string>;
      for (const type of ['idFront', 'idBack', 'proofOfAddress'] as const) urls[type] = await uploaded(token, type);

      for (const left of required) {
        const documents = required.filter((type) => type !== left).map((type) => urls[type]);
        // The back of a passport does not stand in for anything it needs.
        if (idType === 'passport') documents.push(urls.idBack);
        const response = await submit(token, kycBody(documents, { idType }));
        const name = { idFront: 'ID front', idBack: 'ID back', proofOfAddress: 'proof of address' }[left];
        const message = `Please upload your ${name} to submit your verification`;
        expect(response.statusCode, `${idType} without ${left}`).toBe(400);
        expect(response.json()).toEqual({ message, code: 'VALIDATION_ERROR', fields: { documents: message } });
        expect(await statusOf(token)).toBe('not_started');
      }
      const onlyFront = await submit(token, kycBody([urls.idFront], { idType }));
      expect(onlyFront.json().message).toBe(
        idType === 'passport' ? 'Please upload your proof of address to submit your verification' : 'Please upload your ID back and proof of address to submit your verification',
      );

      const complete = await submit(token, kycBody(required.map((type) => urls[type]), { idType }));
      expect(complete.statusCode, complete.body).toBe(200);
      expect(await statusOf(token)).toBe('pending');
    });

    it('goes by the stored type of each document, not by what its URL claims', async () => {
      const { token } = await member();
      const front = await uploaded(token, 'idFront');
      const proof = await uploaded(token, 'idBack'); // stored as an ID back
      const claimed = proof.replace('/idBack/', '/proofOfAddress/');
      const response = await submit(token, kycBody([front, claimed]));
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Please upload your proof of address to submit your verification');
    });
  });

  describe('pictures are stored without metadata, as the type detected', () => {
    it('drops EXIF (GPS position, names, serials) from a camera JPEG, applying its orientation to the pixels', async () => {
      const original = await cameraJpeg();
      const before = await sharp(original).metadata();
      expect(before.exif?.includes(GPS_POINTER)).toBe(true);
      expect(original.includes(Buffer.from('Camera Serial 4471-XZ'))).toBe(true);
      expect(before.orientation).toBe(6);

      const { token } = await member();
      const fileUrl = await uploaded(token, 'idFront', original);
      const [row] = await rows<{ storage_key: string; content_type: string; size_bytes: number }>(
        ctx,
        sql`select storage_key, content_type, size_bytes from kyc_documents where id = ${fileUrl.split('/').pop()}`,
      );
      const stored = ctx.storage.files.get(row!.storage_key)!;
      expect(row).toMatchObject({ content_type: 'image/jpeg', size_bytes: stored.length });
      const after = await sharp(stored).metadata();
      expect(after.format).toBe('jpeg');
      expect(after.exif).toBeUndefined();
      expect(after.xmp).toBeUndefined();
      expect(after.icc).toBeUndefined();
      expect(after.orientation).toBeUndefined();
      expect(stored.includes(Buffer.from('Camera Serial'))).toBe(false);
      expect(stored.includes(Buffer.from('Exif\0\0'))).toBe(false);
      // Upright: the quarter turn the tag asked for is in the pixels now.
      expect([after.width, after.height]).toEqual([48, 64]);

      // And what the member or an admin is served is that clean copy.
      const link = await ctx.app.inject({ method: 'GET', url: `${fileUrl}/link`, headers: bearer(token) });
      const served = await ctx.app.inject({ method: 'GET', url: link.json<{ url: string }>().url });
      expect(served.headers['content-type']).toBe('image/jpeg');
      expect(served.rawPayload.equals(stored)).toBe(true);
    });

    it('drops text chunks from a PNG, storing it as the PNG detected whatever the upload claimed', async () => {
      const { token } = await member();
      const clean = await uploaded(token, 'proofOfAddress', png({ seed: 5, comment: 'GPS 48.8566 N 2.3522 E' }));
      const [row] = await rows<{ storage_key: string; content_type: string }>(ctx, sql`select storage_key, content_type from kyc_documents where id = ${clean.split('/').pop()}`);
      expect(row!.content_type).toBe('image/png');
      const stored = ctx.storage.files.get(row!.storage_key)!;
      expect((await sharp(stored).metadata()).format).toBe('png');
      expect(stored.includes(Buffer.from('GPS 48.8566'))).toBe(false);
      expect(stored.includes(Buffer.from('tEXt'))).toBe(false);
    });

    it('refuses a picture that claims more pixels than it is worth decoding, storing nothing', async () => {
      const { user, token } = await member();
      // A valid PNG header declaring 100 000 × 100 000 pixels over a few bytes of data.
      const bomb = png({ width: 1, height: 1 });
      bomb.writeUInt32BE(100_000, 16);
      bomb.writeUInt32BE(100_000, 20);
      const { crc32 } = await import('node:zlib');
      bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)) >>> 0, 29);
      const response = await upload(token, 'idFront', bomb);
      expect(response.statusCode, response.body).toBe(413);
      expect(response.json()).toEqual({ message: m.fileTooLarge, code: 'PAYLOAD_TOO_LARGE' });
      expect(await documentsOf(user.id)).toBe(0);
    });
  });
  describe('while the file store is down', () => {
    it('answers 503 with Retry-After, writes no row, and takes the same upload once the store is back', async () => {
      const { user, token } = await member();
      const put = ctx.storage.put;
      ctx.storage.put = async () => {
        throw new StorageUnavailableError('put', new Error('connect ECONNREFUSED 127.0.0.1:9000'));
      };
      try {
        const refused = await upload(token, 'idFront');
        expect(refused.statusCode).toBe(503);
        expect(refused.headers['retry-after']).toBe('5');
        expect(refused.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
        expect(await documentsOf(user.id)).toBe(0);
      } finally {
        ctx.storage.put = put;
      }
      const fileUrl = await uploaded(token, 'idFront');
      const [row] = await rows<{ storage_key: string }>(ctx, sql`select storage_key from kyc_documents where id = ${fileUrl.split('/').pop()}`);
      expect(ctx.storage.files.has(row!.storage_key)).toBe(true);
    });
  });
});

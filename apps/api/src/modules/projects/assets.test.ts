import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages, PROJECT_IMAGE_MAX_BYTES, type ProjectAsset } from '@terrafund/contracts';
import { jpeg, PNG_SIGNATURE, pdf, png, pngChunk, pngOfSize } from '../../../test/files';
import { createProject, image, projectBody, uploadAsset, uploaded } from '../../../test/project-fixtures';
import { bearer, createMemberAndAdmin, randomId, useTestApp } from '../../../test/test-app';
import { StorageUnavailableError } from '../../lib/storage';
import { DOCUMENT_HEADERS, FILE_CONTENT_SECURITY_POLICY } from '../../lib/security-headers';

const m = messages.projects;

/** A PNG whose header claims `width`×`height` over almost no data: a decompression bomb's shape. */
function pngClaiming(width: number, height: number) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(Buffer.alloc(1024))), pngChunk('IEND')]);
}

describe('project images and documents', () => {
  const ctx = useTestApp();
  let adminToken: string;
  let memberToken: string;
  beforeAll(async () => {
    ({ adminToken, memberToken } = await createMemberAndAdmin(ctx));
  });

  const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });
  const sizeOf = async (bytes: Buffer) => {
    const meta = await sharp(bytes).metadata();
    return { format: meta.format, width: meta.width, height: meta.height };
  };

  it.each(['png', 'jpeg', 'webp'] as const)('accepts a %s image and serves it as webp at 320, 640 and 1600 px wide', async (format) => {
    const asset = await uploaded(ctx, adminToken, 'image', await image(format, 2000, 1250), `photo.${format}`);
    expect(asset).toMatchObject({ kind: 'image', contentType: 'image/webp', name: 'photo.webp' });
    expect(asset.url).toBe(`/api/projects/assets/${asset._id}`);
    expect(asset.fileUrl).toBe(asset.url);

    const expected = { thumb: [320, 200], card: [640, 400], full: [1600, 1000] } as const;
    for (const [size, [width, height]] of Object.entries(expected)) {
      const response = await get(`${asset.url}/${size}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      expect(await sizeOf(response.rawPayload)).toEqual({ format: 'webp', width, height });
    }
    // The asset's own URL is its full size.
    expect(await sizeOf((await get(asset.url)).rawPayload)).toEqual({ format: 'webp', width: 1600, height: 1000 });
  });

  it('never enlarges a small image', async () => {
    const asset = await uploaded(ctx, adminToken, 'image', await image('png', 500, 300));
    expect(await sizeOf((await get(`${asset.url}/thumb`)).rawPayload)).toMatchObject({ width: 320, height: 192 });
    expect(await sizeOf((await get(`${asset.url}/card`)).rawPayload)).toMatchObject({ width: 500, height: 300 });
    expect(await sizeOf((await get(`${asset.url}/full`)).rawPayload)).toMatchObject({ width: 500, height: 300 });
  });

  it('re-encodes images: metadata is dropped and the camera orientation applied to the pixels', async () => {
    const withExif = await sharp(await image('jpeg', 400, 200))
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Copyright: 'secret camera owner', Artist: 'GPS 48.85N 2.35E' } })
      .jpeg()
      .toBuffer();
    expect((await sharp(withExif).metadata()).exif).toBeDefined();
    const asset = await uploaded(ctx, adminToken, 'image', withExif);
    const served = await sharp((await get(asset.url)).rawPayload).metadata();
    expect(served.exif).toBeUndefined();
    expect(served.orientation).toBeUndefined();
    // Orientation 6 is a quarter turn: the 400×200 picture is shown 200×400.
    expect([served.width, served.height]).toEqual([200, 400]);
  });

  it('serves with immutable caching, nosniff and an ETag, and answers 304 to a matching If-None-Match', async () => {
    const asset = await uploaded(ctx, adminToken, 'image', png({ width: 4, height: 4 }));
    const response = await get(`${asset.url}/card`);
    expect(response.headers).toMatchObject({
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      etag: `"${asset._id}-card"`,
      // Opened in a tab, a picture is a page: the page headers, and a CSP that lets it show the image only.
      'content-security-policy': FILE_CONTENT_SECURITY_POLICY,
      ...DOCUMENT_HEADERS,
    });
    const again = await get(`${asset.url}/card`, { 'if-none-match': `"other", "${asset._id}-card"` });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get(`${asset.url}/thumb`, { 'if-none-match': `"${asset._id}-card"` })).statusCode).toBe(200);
  });

  it('accepts a PDF document and serves it inline under a safe file name', async () => {
    const asset = await uploaded(ctx, adminToken, 'document', pdf(), 'Fact sheet: <2026> – été*?.pdf');
    expect(asset).toMatchObject({ kind: 'document', contentType: 'application/pdf', name: 'Fact_sheet_2026_ete.pdf' });
    const response = await get(asset.url);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(pdf())).toBe(true);
    expect(response.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-disposition': 'inline; filename="Fact_sheet_2026_ete.pdf"',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    });
    // A document has no sizes.
    expect((await get(`${asset.url}/full`)).statusCode).toBe(404);
  });

  it('decides the type by content: renamed, textual and markup files are refused and nothing is stored', async () => {
    const stored = ctx.storage.files.size;
    const refusals: [kind: string, data: Buffer, filename: string, status: number, message: string][] = [
      ['document', png(), 'brochure.pdf', 415, m.documentTypeInvalid],
      ['document', jpeg(), 'brochure.pdf', 415, m.documentTypeInvalid],
      ['image', pdf(), 'photo.png', 415, m.imageTypeInvalid],
      ['image', Buffer.from('just some text, not an image'), 'photo.jpg', 415, m.imageTypeInvalid],
      ['document', Buffer.from('just some text'), 'notes.pdf', 415, m.documentTypeInvalid],
      ['image', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'logo.svg', 415, m.imageTypeInvalid],
      ['image', Buffer.concat([Buffer.from('<html><script>alert(1)</script>'), png()]), 'x.png', 415, m.imageTypeInvalid],
      // Right signature, broken body: refused when decoding, not stored.
      ['image', Buffer.concat([png({ width: 64, height: 64 }).subarray(0, 60), png().subarray(-12)]), 'broken.png', 415, m.imageTypeInvalid],
      ['image', pngClaiming(100_000, 100_000), 'bomb.png', 413, m.imageDimensionsTooLarge],
    ];
    for (const [kind, data, filename, status, message] of refusals) {
      const response = await uploadAsset(ctx, adminToken, { data, filename, contentType: 'image/png' }, kind);
      expect(response.statusCode, filename).toBe(status);
      expect(response.json().message, filename).toBe(message);
    }
    expect(ctx.storage.files.size).toBe(stored);
  });

  it('takes files up to 10 MB and refuses larger ones with 413', async () => {
    const atLimit = await uploadAsset(ctx, adminToken, { data: pngOfSize(PROJECT_IMAGE_MAX_BYTES), filename: 'big.png' });
    expect(atLimit.statusCode).toBe(201);

    const stored = ctx.storage.files.size;
    const overImage = await uploadAsset(ctx, adminToken, { data: pngOfSize(PROJECT_IMAGE_MAX_BYTES + 1), filename: 'big.png' });
    expect(overImage.statusCode).toBe(413);
    expect(overImage.json()).toEqual({ message: m.imageTooLarge, code: 'PAYLOAD_TOO_LARGE' });
    const overDocument = await uploadAsset(ctx, adminToken, { data: Buffer.alloc(PROJECT_IMAGE_MAX_BYTES + 1, 0x20), filename: 'big.pdf' }, 'document');
    expect(overDocument.statusCode).toBe(413);
    expect(overDocument.json().message).toBe(m.documentTooLarge);
    // Announced as too large: refused before the body is read.
    const announced = await uploadAsset(ctx, adminToken, { data: Buffer.alloc(PROJECT_IMAGE_MAX_BYTES + 200 * 1024), filename: 'huge.png' });
    expect(announced.statusCode).toBe(413);
    expect(ctx.storage.files.size).toBe(stored);
  });

  it('needs a kind and a file, sent as multipart', async () => {
    const noKind = await uploadAsset(ctx, adminToken, { data: png() }, null);
    expect(noKind.statusCode).toBe(400);
    expect(noKind.json().fields).toEqual({ kind: m.assetKindInvalid });
    expect((await uploadAsset(ctx, adminToken, { data: png() }, 'video')).json().message).toBe(m.assetKindInvalid);
    const noFile = await uploadAsset(ctx, adminToken, undefined, 'image');
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().fields).toEqual({ file: m.fileMissing });
    const json = await ctx.app.inject({ method: 'POST', url: '/api/projects/assets', headers: bearer(adminToken), payload: { kind: 'image' } });
    expect(json.statusCode).toBe(415);
    const garbled = await ctx.app.inject({
      method: 'POST',
      url: '/api/projects/assets',
      headers: { ...bearer(adminToken), 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
    });
    expect(garbled.statusCode).toBe(400);
  });

  it('lets only admins upload: anonymous 401, members 403', async () => {
    const stored = ctx.storage.files.size;
    expect((await uploadAsset(ctx, undefined, { data: png() })).statusCode).toBe(401);
    const member = await uploadAsset(ctx, memberToken, { data: png() });
    expect(member.statusCode).toBe(403);
    expect(member.json().code).toBe('FORBIDDEN');
    expect(ctx.storage.files.size).toBe(stored);
  });

  it('answers 404 for unknown ids and sizes, without a session needed', async () => {
    const asset = await uploaded(ctx, adminToken, 'image', png());
    for (const url of [
      `/api/projects/assets/${randomId()}`,
      `/api/projects/assets/${randomId()}/card`,
      '/api/projects/assets/not-an-id',
      `${asset.url}/huge`,
      `${asset.url}/file`,
      `${asset.url}/__proto__`,
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('lets projects refer only to existing uploads of the right kind', async () => {
    const picture = await uploaded(ctx, adminToken, 'image', png());
    const document = await uploaded(ctx, adminToken, 'document', pdf(), 'brochure.pdf');
    const project = await createProject(ctx, adminToken, {
      images: [picture.url],
      details: { ...projectBody().details, documents: [{ name: 'Brochure', url: document.url }, { name: 'Survey', url: 'https://example.com/survey.pdf' }] },
    });
    expect(project.images).toEqual([picture.url]);
    expect(project.details.documents.map((d) => d.url)).toEqual([document.url, 'https://example.com/survey.pdf']);

    const swapped: [body: object, field: string][] = [
      [{ images: [document.url] }, 'images'],
      [{ details: { ...projectBody().details, documents: [{ name: 'Photo', url: picture.url }] } }, 'details.documents'],
    ];
    for (const [body, field] of swapped) {
      const response = await ctx.app.inject({ method: 'PATCH', url: `/api/projects/${project._id}`, headers: bearer(adminToken), payload: body });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({ [field]: m.assetNotFound });
    }
  });

  it('detects WebP by its structure', async () => {
    const webp = await image('webp', 8, 8);
    // Bytes appended behind the RIFF container make it something else.
    const padded = Buffer.concat([webp, Buffer.from('<script>alert(1)</script>')]);
    const response = await uploadAsset(ctx, adminToken, { data: padded, filename: 'x.webp' });
    expect(response.statusCode).toBe(415);
    const truncated = webp.subarray(0, webp.length - 4);
    expect((await uploadAsset(ctx, adminToken, { data: truncated, filename: 'x.webp' })).statusCode).toBe(415);
    expect((await uploadAsset(ctx, adminToken, { data: webp, filename: 'x.webp' })).json<ProjectAsset>().contentType).toBe('image/webp');
  });
  it('answers 503 with Retry-After while the file store is down, keeps no asset row and no file of it', async () => {
    const put = ctx.storage.put;
    let puts = 0;
    // The store takes the first variant, then goes down: what it took is removed again.
    ctx.storage.put = async (prefix, bytes) => {
      puts += 1;
      if (puts > 1) throw new StorageUnavailableError('put', new Error('connect ECONNREFUSED 127.0.0.1:9000'));
      return put(prefix, bytes);
    };
    const files = ctx.storage.files.size;
    try {
      const response = await uploadAsset(ctx, adminToken, { data: await image('png', 800, 500) });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(ctx.storage.files.size).toBe(files);
    } finally {
      ctx.storage.put = put;
    }
    expect((await uploaded(ctx, adminToken, 'image', await image('png', 800, 500))).kind).toBe('image');
  });
});

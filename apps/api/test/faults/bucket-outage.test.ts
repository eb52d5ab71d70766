import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pdf, png } from '../files';
import { waitFor } from '../processes/harness';
import { bearer, faultsSkipReason } from './backends';
import { expectServingWithout, useFaultInstance } from './fault-instance';

/** A multipart upload as the browser sends it. */
function form(fields: Record<string, string>, file: { name: string; data: Buffer; type: string }) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append('file', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  return body;
}

/** Every object key s3rver keeps on disk for the bucket (its files are named after the keys). */
function storedKeys(directory: string): string[] {
  const root = path.join(directory, 'terrafund-files');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.endsWith('._S3rver_metadata.json'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).replace(/\._S3rver_object$/, ''));
}

/**
 * The bucket stops and comes back: uploads (KYC documents, project pictures and documents) answer 503 with
 * Retry-After meanwhile, not 500; no database row names a file the bucket does not hold; signed links and pictures
 * work again once it is back, for files stored before the outage too.
 */
describe.skipIf(faultsSkipReason)('the bucket stops and comes back', () => {
  const run = useFaultInstance('bucket', { admin: true });
  let before: { documentId: string; assetUrl: string };

  const uploadDocument = (data = png({ width: 64, height: 48, seed: Math.floor(Math.random() * 200) })) =>
    fetch(`${run.instance.url}/api/kyc/upload-document`, {
      method: 'POST',
      ...bearer(run.member.token),
      body: form({ documentType: 'idFront' }, { name: 'id.png', data, type: 'image/png' }),
    });
  const uploadAsset = () =>
    fetch(`${run.instance.url}/api/projects/assets`, { method: 'POST', ...bearer(run.adminToken), body: form({ kind: 'document' }, { name: 'sheet.pdf', data: pdf(), type: 'application/pdf' }) });
  const link = async (documentId: string) => {
    const response = await fetch(`${run.instance.url}/api/kyc/documents/idFront/${documentId}/link`, bearer(run.member.token));
    expect(response.status).toBe(200);
    return ((await response.json()) as { url: string }).url;
  };

  /** Every stored key a KYC document or project asset row names is in the bucket's directory. */
  async function everyRowHasItsFile() {
    const keys = new Set(storedKeys(run.backends.s3.directory));
    const documents = await run.backends.sql<{ storage_key: string }>('select storage_key from kyc_documents');
    const assets = await run.backends.sql<{ variants: Record<string, string> }>('select variants from project_assets');
    const named = [...documents.map((d) => d.storage_key), ...assets.flatMap((a) => Object.values(a.variants))];
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((key) => !keys.has(key)), 'rows naming a file the bucket does not hold').toEqual([]);
  }

  it('stores uploads while the bucket answers', async () => {
    const document = await uploadDocument();
    expect(document.status).toBe(201);
    const asset = await uploadAsset();
    expect(asset.status).toBe(201);
    before = {
      documentId: ((await document.json()) as { fileUrl: string }).fileUrl.split('/').pop()!,
      assetUrl: ((await asset.json()) as { url: string }).url,
    };
    expect((await fetch(`${run.instance.url}${await link(before.documentId)}`)).status).toBe(200);
    await everyRowHasItsFile();
  });

  it('answers uploads 503 with Retry-After while the bucket is down, and writes no row for them', async () => {
    const [documentsBefore] = await run.backends.sql<{ n: number }>('select count(*)::int as n from kyc_documents');
    const [assetsBefore] = await run.backends.sql<{ n: number }>('select count(*)::int as n from project_assets');
    await run.backends.s3.stop();
    for (const upload of [() => uploadDocument(), () => uploadAsset()]) {
      const response = await upload();
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await response.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    }
    // Reading a stored file cannot work either: a 503 too, never a 500.
    const signed = await fetch(`${run.instance.url}${await link(before.documentId)}`);
    expect(signed.status).toBe(503);
    expect((await fetch(`${run.instance.url}${before.assetUrl}`)).status).toBe(503);
    expect((await run.backends.sql<{ n: number }>('select count(*)::int as n from kyc_documents'))[0]!.n).toBe(documentsBefore!.n);
    expect((await run.backends.sql<{ n: number }>('select count(*)::int as n from project_assets'))[0]!.n).toBe(assetsBefore!.n);
    await expectServingWithout(run.instance, 's3');
  });

  it('serves signed links and pictures again once the bucket is back, and takes uploads again', async () => {
    await run.backends.s3.start();
    await waitFor('health to be 200 with the bucket back', async () => (await fetch(`${run.instance.url}/api/health`)).status === 200, 30_000, 200);
    const signed = await fetch(`${run.instance.url}${await link(before.documentId)}`);
    expect(signed.status).toBe(200);
    expect(signed.headers.get('content-type')).toBe('image/png');
    expect((await fetch(`${run.instance.url}${before.assetUrl}`)).status).toBe(200);
    expect((await uploadDocument()).status).toBe(201);
    expect((await uploadAsset()).status).toBe(201);
    await everyRowHasItsFile();
  });
});

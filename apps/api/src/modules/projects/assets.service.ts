import { inArray, eq } from 'drizzle-orm';
import sharp, { type Metadata } from 'sharp';
import {
  messages,
  PROJECT_IMAGE_SIZES,
  UUID_PATTERN,
  projectAssetUrl,
  type ProjectAsset,
  type ProjectAssetKind,
  type ProjectImageSize,
} from '@terrafund/contracts';
import type { Executor } from '../../db/client';
import { projectAssets, type ProjectAssetRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../lib/app-error';
import { detectFileType } from '../../lib/file-type';
import type { FileStorage } from '../../lib/storage';

const m = messages.projects;

/**
 * The largest image we decode: 50 megapixels covers the 48 MP of today's phone cameras. A 10 MB PNG can
 * claim a 100 000 × 100 000 canvas that decodes to 40 GB; the header is read and refused before any decoding.
 */
const MAX_IMAGE_PIXELS = 50_000_000;
const WEBP_QUALITY = 80;
const IMAGE_SIZES = Object.keys(PROJECT_IMAGE_SIZES) as ProjectImageSize[];
const STORAGE_PREFIX = { image: 'project-images', document: 'project-documents' } as const;
const ACCEPTED_IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);

type AssetDeps = Pick<Deps, 'db' | 'clock'> & { storage: FileStorage };
type ProcessedImage = { variants: Record<ProjectImageSize, Buffer>; width: number; height: number };
/** What an upload becomes before it is stored: the bytes of each variant, ready to put. */
export type PreparedAsset = {
  kind: ProjectAssetKind;
  contentType: string;
  fileName: string;
  files: Record<string, Buffer>;
};

/**
 * Decodes an image and re-encodes it as WebP at each of PROJECT_IMAGE_SIZES' widths (never larger than the
 * original). Re-encoding is the point: what we serve is pixels we produced, with no metadata (EXIF GPS,
 * camera serials) and nothing an attacker appended to the file. The orientation a camera recorded is applied
 * to the pixels first, since the tag that carried it is dropped.
 */
async function processImage(bytes: Buffer): Promise<ProcessedImage> {
  let metadata: Metadata;
  try {
    // The header only: the pixel limit is ours to report below, not a decoding failure.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', m.imageTypeInvalid);
  }
  if (!metadata.width || !metadata.height) throw new AppError('UNSUPPORTED_MEDIA_TYPE', m.imageTypeInvalid);
  if (metadata.width * metadata.height > MAX_IMAGE_PIXELS) throw new AppError('PAYLOAD_TOO_LARGE', m.imageDimensionsTooLarge);

  try {
    // Decoded once, at the largest size we serve; the smaller sizes are made from those pixels.
    const largest = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: PROJECT_IMAGE_SIZES.full, withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width, height, channels } = largest.info;
    const variants = {} as Record<ProjectImageSize, Buffer>;
    for (const size of IMAGE_SIZES) {
      variants[size] = await sharp(largest.data, { raw: { width, height, channels } })
        .resize({ width: PROJECT_IMAGE_SIZES[size], withoutEnlargement: true })
        .webp({ quality: WEBP_QUALITY })
        .toBuffer();
    }
    return { variants, width, height };
  } catch {
    // A header that parses over a body that does not (truncated or corrupt data).
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', m.imageTypeInvalid);
  }
}

/**
 * A file name safe inside `Content-Disposition: inline; filename="…"` and on any disk: letters without their
 * accents, digits, dot, dash and underscore only, and the extension of the type we detected, not the sender's.
 */
function safeFileName(name: string | undefined, extension: string): string {
  const base = (name ?? '')
    .replace(/\.[^.]*$/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, 100);
  return `${base || 'file'}.${extension}`;
}

/** Checks an upload's bytes against its kind and produces what will be stored (images: the resized variants). */
export async function prepareAsset(kind: ProjectAssetKind, bytes: Buffer, fileName?: string): Promise<PreparedAsset> {
  const detected = detectFileType(bytes);
  if (kind === 'image') {
    if (!detected || !ACCEPTED_IMAGE_TYPES.has(detected)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', m.imageTypeInvalid);
    const { variants } = await processImage(bytes);
    return { kind, contentType: 'image/webp', fileName: safeFileName(fileName, 'webp'), files: variants };
  }
  if (detected !== 'application/pdf') throw new AppError('UNSUPPORTED_MEDIA_TYPE', m.documentTypeInvalid);
  return { kind, contentType: 'application/pdf', fileName: safeFileName(fileName, 'pdf'), files: { file: bytes } };
}

function toAssetDto(row: Pick<ProjectAssetRow, 'id' | 'kind' | 'fileName' | 'contentType'>): ProjectAsset {
  const url = projectAssetUrl(row.id);
  return { _id: row.id, kind: row.kind, name: row.fileName, contentType: row.contentType, url, fileUrl: url };
}

/**
 * Puts a prepared asset's files in storage and records them, in the caller's transaction (the seed stores its
 * pictures in the transaction that records the seed). Files already put are removed when anything fails, so
 * a refused or rolled-back upload leaves nothing behind; `stored` collects the keys for a caller whose
 * transaction may still roll back after this returns.
 */
export async function storeAsset(
  tx: Executor,
  deps: AssetDeps,
  prepared: PreparedAsset,
  uploadedBy: string,
  stored: string[] = [],
): Promise<ProjectAssetRow> {
  const variants: Record<string, string> = {};
  try {
    for (const [name, bytes] of Object.entries(prepared.files)) {
      const key = await deps.storage.put(STORAGE_PREFIX[prepared.kind], bytes);
      stored.push(key);
      variants[name] = key;
    }
    const byteSize = Object.values(prepared.files).reduce((sum, b) => sum + b.length, 0);
    const [row] = await tx
      .insert(projectAssets)
      .values({
        kind: prepared.kind,
        contentType: prepared.contentType,
        fileName: prepared.fileName,
        byteSize,
        variants,
        uploadedBy,
        createdAt: deps.clock.now(),
      })
      .returning();
    return row!;
  } catch (error) {
    await removeFiles(deps.storage, Object.values(variants));
    throw error;
  }
}

export async function removeFiles(storage: FileStorage, keys: string[]) {
  await Promise.all(keys.map((key) => storage.delete(key).catch(() => {})));
}

/** POST /api/projects/assets: an admin's image or PDF, checked, re-encoded (images) and stored. */
export async function uploadAsset(
  deps: AssetDeps,
  admin: { id: string },
  input: { kind: ProjectAssetKind; bytes: Buffer; fileName?: string },
): Promise<ProjectAsset> {
  const prepared = await prepareAsset(input.kind, input.bytes, input.fileName);
  return toAssetDto(await storeAsset(deps.db, deps, prepared, admin.id));
}

/**
 * What a public asset URL names. `size` is one of the image sizes; an image without one is its `full`
 * size, a document has no sizes. Anything unknown is simply not found.
 */
export async function readAsset(deps: AssetDeps, id: string, size?: string) {
  const notFound = new AppError('NOT_FOUND', messages.common.notFound);
  if (!UUID_PATTERN.test(id)) throw notFound;
  const [row] = await deps.db.select().from(projectAssets).where(eq(projectAssets.id, id)).limit(1);
  if (!row) throw notFound;
  let variant: string;
  if (row.kind === 'image') {
    variant = size ?? 'full';
    if (!(IMAGE_SIZES as string[]).includes(variant)) throw notFound;
  } else {
    if (size !== undefined) throw notFound;
    variant = 'file';
  }
  const key = row.variants[variant];
  if (!key) throw notFound;
  return {
    contentType: row.contentType,
    fileName: row.fileName,
    kind: row.kind,
    // The bytes behind an id and size never change, so the name of the variant is a strong validator.
    etag: `"${row.id}-${variant}"`,
    /** Read only when the caller's copy is not current (no If-None-Match match). */
    bytes: () => deps.storage.get(key),
  };
}

/** The kinds of the given asset ids that exist (for checking the URLs a project refers to). */
export async function assetKinds(db: Executor, ids: string[]): Promise<Map<string, ProjectAssetKind>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: projectAssets.id, kind: projectAssets.kind })
    .from(projectAssets)
    .where(inArray(projectAssets.id, ids));
  return new Map(rows.map((r) => [r.id, r.kind]));
}

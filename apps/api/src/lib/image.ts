import sharp, { type Metadata } from 'sharp';

/** The largest picture decoded: 50 megapixels covers today's phone cameras (the project uploads use the same). */
const MAX_PICTURE_PIXELS = 50_000_000;

export type PictureType = 'image/jpeg' | 'image/png';

/** Why a picture was not re-encoded: it does not decode, or it claims more pixels than we decode. */
export class PictureError extends Error {
  constructor(readonly reason: 'undecodable' | 'too-many-pixels') {
    super(reason);
    this.name = 'PictureError';
  }
}

/**
 * The picture's pixels written afresh in its own format, and nothing else: no EXIF (GPS position, camera
 * serial, time), no XMP, ICC or comments, nothing appended after the image. The orientation the camera
 * recorded is applied to the pixels first, since the tag that carried it goes. The header is read before
 * decoding, so a small file claiming a huge canvas is refused without allocating it.
 */
export async function reencodePicture(bytes: Buffer, type: PictureType): Promise<Buffer> {
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new PictureError('undecodable');
  }
  if (!metadata.width || !metadata.height) throw new PictureError('undecodable');
  if (metadata.width * metadata.height > MAX_PICTURE_PIXELS) throw new PictureError('too-many-pixels');
  try {
    const image = sharp(bytes, { limitInputPixels: MAX_PICTURE_PIXELS, failOn: 'error' }).rotate();
    // sharp writes no metadata unless asked to (withMetadata/keepExif): the default is what we want.
    return type === 'image/jpeg'
      ? await image.jpeg({ quality: 90, mozjpeg: true }).toBuffer()
      : await image.png({ compressionLevel: 9 }).toBuffer();
  } catch {
    throw new PictureError('undecodable');
  }
}

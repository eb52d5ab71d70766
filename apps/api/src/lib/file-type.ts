/**
 * Decides a file's type from its bytes, never from its name or the declared type, and checks the structure
 * beyond the first bytes: a PNG must start with its IHDR chunk and end with IEND, a JPEG must start with SOI
 * and end with EOI, a WebP must be one RIFF container of exactly its declared length holding a VP8/VP8L/VP8X
 * chunk, a PDF must start with %PDF- and end with %%EOF. A markup prologue near the start (an HTML
 * or SVG document wearing an image header) is refused as well.
 */
type DetectedType = 'image/jpeg' | 'image/png' | 'image/webp' | 'application/pdf';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MARKUP = /<\s*(!doctype|html|head|body|script|svg|iframe|object|embed|\?xml)/i;

function looksLikeMarkup(bytes: Buffer): boolean {
  return MARKUP.test(bytes.subarray(0, 1024).toString('latin1'));
}

function isPng(b: Buffer): boolean {
  return (
    b.length >= 8 + 25 + 12 &&
    b.subarray(0, 8).equals(PNG_SIGNATURE) &&
    b.subarray(12, 16).toString('latin1') === 'IHDR' &&
    b.subarray(b.length - 8, b.length - 4).toString('latin1') === 'IEND'
  );
}

function isJpeg(b: Buffer): boolean {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return false;
  let end = b.length;
  while (end > 2 && b[end - 1] === 0x00) end -= 1; // some encoders pad after EOI
  return b[end - 2] === 0xff && b[end - 1] === 0xd9;
}

function isWebp(b: Buffer): boolean {
  if (b.length < 20) return false;
  if (b.subarray(0, 4).toString('latin1') !== 'RIFF' || b.subarray(8, 12).toString('latin1') !== 'WEBP') return false;
  // The RIFF size covers everything after its own 8 bytes: bytes appended behind the image are refused.
  if (b.readUInt32LE(4) + 8 !== b.length) return false;
  return ['VP8 ', 'VP8L', 'VP8X'].includes(b.subarray(12, 16).toString('latin1'));
}

function isPdf(b: Buffer): boolean {
  return b.subarray(0, 5).toString('latin1') === '%PDF-' && b.subarray(Math.max(0, b.length - 1024)).toString('latin1').includes('%%EOF');
}

export function detectFileType(bytes: Buffer): DetectedType | undefined {
  if (looksLikeMarkup(bytes)) return undefined;
  if (isPng(bytes)) return 'image/png';
  if (isJpeg(bytes)) return 'image/jpeg';
  if (isWebp(bytes)) return 'image/webp';
  if (isPdf(bytes)) return 'application/pdf';
  return undefined;
}

/**
 * Extensions of the types stored as they were sent (KYC documents). WebP is accepted only as a project image,
 * which is re-encoded and named where it is stored.
 */
export const extensionFor: Record<Exclude<DetectedType, 'image/webp'>, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'application/pdf': 'pdf',
};

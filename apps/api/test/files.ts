import { crc32, deflateSync } from 'node:zlib';
import { pdfFile } from '../src/lib/pdf';

/**
 * Real test files built from their formats (no fixtures on disk) and a multipart body builder for
 * `app.inject`. Every builder here produces a file a browser decodes; the refusal cases are built from them.
 */

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk: length, type, data, CRC-32 over type and data. */
export function pngChunk(type: string, data: Buffer = Buffer.alloc(0)): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData) >>> 0);
  return Buffer.concat([length, typeAndData, crc]);
}

/**
 * A valid RGB PNG of `width`×`height` (8-bit truecolour), optionally with a `tEXt` comment chunk before IEND.
 * Pixels vary with `seed` so two images differ in their bytes.
 */
export function png(options: { width?: number; height?: number; seed?: number; comment?: string } = {}): Buffer {
  const { width = 2, height = 2, seed = 0 } = options;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter
  ihdr[12] = 0; // interlace
  const rowBytes = 1 + width * 3;
  const raw = Buffer.alloc(rowBytes * height);
  for (let y = 0; y < height; y += 1) {
    raw[y * rowBytes] = 0; // filter type none
    for (let x = 0; x < width * 3; x += 1) raw[y * rowBytes + 1 + x] = (seed * 31 + x * 17 + y * 29) & 0xff;
  }
  const chunks = [pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw))];
  if (options.comment !== undefined) chunks.push(pngChunk('tEXt', Buffer.from(`Comment\0${options.comment}`, 'latin1')));
  chunks.push(pngChunk('IEND'));
  return Buffer.concat([PNG_SIGNATURE, ...chunks]);
}

/** A valid PNG of exactly `size` bytes: a small image padded with an ancillary `tEXt` chunk. */
export function pngOfSize(size: number, seed = 0): Buffer {
  const base = png({ seed, comment: '' });
  const padding = size - base.length;
  if (padding < 0) throw new Error(`a PNG cannot be as small as ${size} bytes`);
  const result = png({ seed, comment: 'x'.repeat(padding) });
  if (result.length !== size) throw new Error(`pngOfSize: built ${result.length}, wanted ${size}`);
  return result;
}

/**
 * A minimal baseline JPEG (1×1, greyscale): JFIF header, one quantisation table, SOF0, one DC and one AC Huffman
 * table each holding a single 1-bit code, and a scan of one block whose coefficients are all zero (DC difference
 * category 0, then end-of-block: bits `00`, padded with ones to 0x3F).
 */
export const MINIMAL_JPEG = Buffer.from(
  [
    [0xff, 0xd8], // SOI
    [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00], // APP0 JFIF
    [0xff, 0xdb, 0x00, 0x43, 0x00, ...new Array<number>(64).fill(1)], // DQT, table 0
    [0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00], // SOF0: 8-bit, 1×1, 1 component
    [0xff, 0xc4, 0x00, 0x14, 0x00, 0x01, ...new Array<number>(15).fill(0), 0x00], // DHT DC 0: one code, category 0
    [0xff, 0xc4, 0x00, 0x14, 0x10, 0x01, ...new Array<number>(15).fill(0), 0x00], // DHT AC 0: one code, EOB
    [0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00], // SOS
    [0x3f], // entropy-coded data
    [0xff, 0xd9], // EOI
  ].flat(),
);

/** The minimal JPEG with a COM segment of `comment` bytes, so two JPEGs can differ. */
export function jpeg(comment = ''): Buffer {
  if (comment === '') return Buffer.from(MINIMAL_JPEG);
  const text = Buffer.from(comment, 'latin1');
  const header = Buffer.from([0xff, 0xfe, 0, 0]);
  header.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([MINIMAL_JPEG.subarray(0, 2), header, text, MINIMAL_JPEG.subarray(2)]);
}

/** A small valid PDF (one empty page) with a correct cross-reference table. */
export function pdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
  ];
  return pdfFile(objects);
}

export type MultipartPart =
  | { name: string; value: string }
  | { name: string; filename: string; contentType?: string; data: Buffer };

/** A multipart/form-data body and its content-type header, parts in the given order. */
export function multipart(parts: MultipartPart[], boundary = `----terrafund-test-${Math.random().toString(16).slice(2)}`) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
            `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

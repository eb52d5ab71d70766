import { describe, expect, it } from 'vitest';
import { jpeg, MINIMAL_JPEG, PNG_SIGNATURE, pdf, png, pngChunk, pngOfSize } from '../../test/files';
import { detectFileType, extensionFor } from './file-type';

const text = (s: string) => Buffer.from(s, 'latin1');

describe('detectFileType', () => {
  describe('accepts real files by their bytes', () => {
    it('a PNG', () => {
      expect(detectFileType(png())).toBe('image/png');
      expect(detectFileType(png({ width: 17, height: 9, seed: 4 }))).toBe('image/png');
      expect(detectFileType(png({ comment: 'scanned with care' }))).toBe('image/png');
    });

    it('a PNG of exactly 5 MB padded with an ancillary chunk', () => {
      const big = pngOfSize(5 * 1024 * 1024);
      expect(big.length).toBe(5 * 1024 * 1024);
      expect(detectFileType(big)).toBe('image/png');
    });

    it('a JPEG, with or without a comment segment, and with zero padding after EOI', () => {
      expect(detectFileType(MINIMAL_JPEG)).toBe('image/jpeg');
      expect(detectFileType(jpeg('a comment'))).toBe('image/jpeg');
      expect(detectFileType(Buffer.concat([MINIMAL_JPEG, Buffer.alloc(16)]))).toBe('image/jpeg');
    });

    it('a PDF', () => {
      expect(detectFileType(pdf())).toBe('application/pdf');
      // %%EOF need not be the very last bytes (trailing whitespace or an incremental-update tail).
      expect(detectFileType(Buffer.concat([pdf(), text('\r\n\r\n')]))).toBe('application/pdf');
    });

    it('ignores any name: only the bytes are given, and they decide', () => {
      expect(detectFileType(Buffer.from(png()))).toBe('image/png');
    });

    it('maps each type to its extension', () => {
      expect(extensionFor).toEqual({ 'image/jpeg': 'jpg', 'image/png': 'png', 'application/pdf': 'pdf' });
    });
  });

  describe('refuses', () => {
    it('empty input and plain text', () => {
      expect(detectFileType(Buffer.alloc(0))).toBeUndefined();
      expect(detectFileType(text('hello, this is a text file renamed to .png\n'))).toBeUndefined();
      expect(detectFileType(Buffer.alloc(1000))).toBeUndefined();
    });

    it('SVG, with or without an XML prologue, even padded to look long', () => {
      const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
      expect(detectFileType(text(svg))).toBeUndefined();
      expect(detectFileType(text(`<?xml version="1.0" encoding="UTF-8"?>\n${svg}`))).toBeUndefined();
      expect(detectFileType(text(`   \n<SVG>${' '.repeat(5000)}</SVG>`))).toBeUndefined();
    });

    it('HTML wearing an image header (PNG signature, GIF89a, JPEG SOI)', () => {
      const html = '<html><body><script>alert(document.cookie)</script></body></html>';
      expect(detectFileType(Buffer.concat([PNG_SIGNATURE, text(html)]))).toBeUndefined();
      expect(detectFileType(text(`GIF89a${html}`))).toBeUndefined();
      expect(detectFileType(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), text(html), Buffer.from([0xff, 0xd9])]))).toBeUndefined();
      expect(detectFileType(text(`%PDF-1.4\n<!DOCTYPE html>${html}\n%%EOF`))).toBeUndefined();
    });

    it('a structurally valid PNG or JPEG whose metadata carries markup (a polyglot)', () => {
      expect(detectFileType(png({ comment: '<html><script>alert(1)</script></html>' }))).toBeUndefined();
      expect(detectFileType(png({ comment: '<iframe src="https://evil.example">' }))).toBeUndefined();
      expect(detectFileType(jpeg('<script>alert(1)</script>'))).toBeUndefined();
      expect(detectFileType(jpeg('< svg onload=alert(1)>'))).toBeUndefined();
    });

    it('a truncated PNG: signature only, no IHDR, or no IEND', () => {
      const full = png();
      expect(detectFileType(PNG_SIGNATURE)).toBeUndefined();
      expect(detectFileType(full.subarray(0, 33))).toBeUndefined();
      expect(detectFileType(full.subarray(0, full.length - 12))).toBeUndefined();
      expect(detectFileType(full.subarray(0, full.length - 1))).toBeUndefined();
      // IEND present but the first chunk is not IHDR.
      expect(detectFileType(Buffer.concat([PNG_SIGNATURE, pngChunk('tEXt', text('Comment\0x'.repeat(3))), full.subarray(8)]))).toBeUndefined();
    });

    it('a JPEG without its end-of-image marker, or without SOI', () => {
      expect(detectFileType(MINIMAL_JPEG.subarray(0, MINIMAL_JPEG.length - 2))).toBeUndefined();
      expect(detectFileType(MINIMAL_JPEG.subarray(0, MINIMAL_JPEG.length - 1))).toBeUndefined();
      expect(detectFileType(MINIMAL_JPEG.subarray(2))).toBeUndefined();
      expect(detectFileType(Buffer.from([0xff, 0xd8, 0xff]))).toBeUndefined();
    });

    it('a PDF without %%EOF, or with %%EOF only far from the end', () => {
      const whole = pdf();
      const withoutEof = Buffer.from(whole.toString('latin1').replace('%%EOF', ''), 'latin1');
      expect(detectFileType(withoutEof)).toBeUndefined();
      expect(detectFileType(text('%PDF-1.7\n'))).toBeUndefined();
      expect(detectFileType(Buffer.concat([whole, Buffer.alloc(4096, 0x20)]))).toBeUndefined();
      expect(detectFileType(Buffer.concat([text('x'), whole]))).toBeUndefined();
    });

    it('formats that are not accepted: GIF, WebP, BMP, ZIP', () => {
      expect(detectFileType(Buffer.concat([text('GIF89a'), Buffer.from([1, 0, 1, 0, 0, 0, 0, 0x3b])]))).toBeUndefined();
      expect(detectFileType(Buffer.concat([text('RIFF'), Buffer.alloc(4), text('WEBPVP8 '), Buffer.alloc(20)]))).toBeUndefined();
      expect(detectFileType(Buffer.concat([text('BM'), Buffer.alloc(60)]))).toBeUndefined();
      expect(detectFileType(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60)]))).toBeUndefined();
    });
  });
});

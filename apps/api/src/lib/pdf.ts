/**
 * A PDF file of the given objects (dictionaries and streams, numbered from 1 in order, the first the catalog),
 * with its cross-reference table: enough for a reader to open a one-page document.
 */
export function pdfFile(objects: string[]): Buffer {
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A line of a text page: its font size in points and its text (ASCII; anything else is shown as an apostrophe). */
export type PdfLine = [size: number, text: string];

/**
 * A one-page PDF (US Letter) of lines of text, top to bottom, in the standard Helvetica font: plain PDF 1.4 with
 * PDF's string escapes, so any reader opens it.
 */
export function textPagePdf(lines: PdfLine[]): Buffer {
  const pdfText = (text: string) => text.replace(/[^\x20-\x7e]/g, "'").replace(/[\\()]/g, (c) => `\\${c}`);
  let y = 780;
  let content = 'BT\n';
  for (const [size, text] of lines) {
    y -= size + 8;
    content += `/F1 ${size} Tf 1 0 0 1 56 ${y} Tm (${pdfText(text)}) Tj\n`;
  }
  content += 'ET\n';
  return pdfFile([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`,
  ]);
}

/** Words of `text` in lines of at most `width` characters (a longer word gets a line of its own). */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

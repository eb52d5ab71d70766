/**
 * Text made safe as HTML text or as an attribute value, escaped exactly as React's server renderer escapes it, so
 * the same function also finds such text in the web app's drawn pages (plugins/web.ts).
 */
export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[c]!);

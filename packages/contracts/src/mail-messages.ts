/**
 * The undeliverable mail screen's messages (mail.ts holds its schemas), in a module without zod: the English
 * catalogue is built from them (i18n/catalogue.ts), and a first screen that loads the catalogue loads no schema.
 */
export const mailMessages = {
  cursorInvalid: 'Invalid page cursor',
  notUndeliverable: 'This mail is not waiting to be sent again',
  noBody: 'This mail can no longer be sent again: its content was not kept',
  resent: 'The mail is queued again',
  loadFailed: 'Could not load the undeliverable mail',
} as const;

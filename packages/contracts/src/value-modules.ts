/**
 * The contracts modules a member's first screens take their values from (amount formatting, constants, messages,
 * asset addresses, notification links, contact defaults). They load no zod, directly or through another module:
 * its schemas cost a slow phone's first screen more than a hundred milliseconds (issue 17). apps/web/vite.config.ts
 * bundles them in one chunk of their own; value-modules.test.ts keeps them free of zod.
 */
export const VALUE_MODULES = ['constants', 'messages', 'money-format', 'project-assets', 'notification-types', 'kyc-documents', 'contact', 'mail-messages'];

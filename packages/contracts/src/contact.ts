/**
 * The contact details the landing page shows when the server names none (CONTACT_EMAIL, CONTACT_PHONE): the
 * server's defaults, and what the landing page is drawn with at build, which the server replaces with its own
 * (apps/api/src/plugins/web.ts).
 */
export const DEFAULT_CONTACT = { email: 'support@terrafund.example', phone: '+1 (201) 555-0134' } as const;

/** A phone number as a tel: URI: digits only, keeping a leading plus. */
export function telHref(phone: string) {
  const trimmed = phone.trim();
  return `tel:${trimmed.startsWith('+') ? '+' : ''}${trimmed.replace(/\D/g, '')}`;
}

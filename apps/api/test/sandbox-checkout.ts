import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../src/app';

/**
 * The sandbox checkout as a browser uses it: open the payment_url, read the forms off the page, and press a
 * button, which posts the page's CSRF token from our own origin to the form's action (capability included).
 */
export type Checkout = {
  invoiceId: string;
  /** The path of the page, capability (`?key=…`) included. */
  page: string;
  /** The path without its capability. */
  bare: string;
  key: string;
  /** Sends one of the page's forms the way a browser would; `overrides` change what is sent. */
  press(
    action: 'pay' | 'expire',
    overrides?: { headers?: Record<string, string>; token?: string | null; key?: string | null },
  ): Promise<LightMyRequestResponse>;
};

/** Opens the checkout of `paymentUrl` (while it is open, so its forms and their token are on the page). */
export async function checkoutOf(app: App, paymentUrl: string): Promise<Checkout> {
  const url = new URL(paymentUrl);
  const key = url.searchParams.get('key') ?? '';
  const bare = url.pathname;
  const invoiceId = decodeURIComponent(bare.split('/').pop()!);
  const origin = new URL(app.deps.config.publicUrl).origin;
  const opened = await app.inject({ method: 'GET', url: `${bare}${url.search}` });
  const formToken = /name="csrf" value="([^"]+)"/.exec(opened.body)?.[1] ?? '';

  return {
    invoiceId,
    page: `${bare}${url.search}`,
    bare,
    key,
    async press(action, overrides = {}) {
      const sentKey = overrides.key === undefined ? key : overrides.key;
      const token = overrides.token === undefined ? formToken : overrides.token;
      return app.inject({
        method: 'POST',
        url: `${bare}/${action}${sentKey === null ? '' : `?key=${encodeURIComponent(sentKey)}`}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin, ...overrides.headers },
        payload: token === null ? '' : new URLSearchParams({ csrf: token }).toString(),
      });
    },
  };
}

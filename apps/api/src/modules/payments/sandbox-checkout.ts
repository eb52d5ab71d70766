import { createHash } from 'node:crypto';
import { formatCentsUsd } from '@terrafund/contracts';
import { CHECKOUT_KEY_PARAM, FORM_TOKEN_FIELD, type SandboxInvoice } from './sandbox.provider';
import { escapeHtml } from '../../lib/html';

/**
 * The sandbox's hosted checkout page: plain HTML, no script at all. Its two buttons are forms that POST to
 * our own server, so it works under a CSP of its own that allows nothing but its one stylesheet (by hash) and
 * form submissions to us.
 */
const STYLE = `
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f1f5f9;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#0f172a}
main{background:#fff;border-radius:16px;box-shadow:0 10px 30px rgba(15,23,42,.12);padding:32px;width:min(440px,92vw)}
.badge{display:inline-block;background:#fef3c7;color:#92400e;border-radius:999px;padding:4px 12px;font-size:13px;margin:0 0 16px}
h1{font-size:24px;margin:0 0 20px}
dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px;margin:0 0 24px;font-size:15px}
dt{color:#64748b}dd{margin:0;font-weight:600;word-break:break-all}
form{margin:0 0 12px}
button,.button{display:block;box-sizing:border-box;width:100%;border:0;border-radius:10px;padding:14px;font-size:16px;
font-weight:600;cursor:pointer;text-align:center;text-decoration:none;background:#047857;color:#fff}
button.secondary{background:#e2e8f0;color:#0f172a}
.note{font-size:13px;color:#64748b;margin:16px 0 0}
`.trim();

const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/**
 * The page's own policy, replacing the app's: nothing may load but the stylesheet above, and forms may only
 * go to our origin (and PUBLIC_URL's, where the return route's redirect leads when the two differ).
 */
export function checkoutPolicy(publicUrl: string): string {
  const publicOrigin = new URL(publicUrl).origin;
  return [
    "default-src 'none'",
    `style-src ${STYLE_HASH}`,
    `form-action 'self' ${publicOrigin}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const usd = (cents: number) => formatCentsUsd(cents);

const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const STATUS_TEXT: Record<SandboxInvoice['status'], string> = {
  New: 'Awaiting payment',
  Settled: 'Paid',
  Expired: 'Expired',
};

/**
 * The checkout page of `invoice` (as the sandbox reads it: an open invoice past its expiry reads Expired). Each
 * form posts to the checkout's own address, capability `key` included, with the CSRF token in a hidden field.
 */
export function renderCheckoutPage(invoice: SandboxInvoice, access: { key: string; formToken: string }): string {
  const base = `/api/payments/sandbox/checkout/${encodeURIComponent(invoice.id)}`;
  const action = (name: 'pay' | 'expire') => `${base}/${name}?${CHECKOUT_KEY_PARAM}=${encodeURIComponent(access.key)}`;
  const token = `<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${escapeHtml(access.formToken)}">`;
  const open = invoice.status === 'New';
  const heading = open ? `Pay ${usd(invoice.amountCents)}` : `Invoice ${STATUS_TEXT[invoice.status].toLowerCase()}`;
  const actions = open
    ? `<form method="post" action="${escapeHtml(action('pay'))}">${token}<button type="submit">Pay now</button></form>
<form method="post" action="${escapeHtml(action('expire'))}">${token}<button type="submit" class="secondary">Let it expire</button></form>
<p class="note">This page stands in for a crypto payment provider. "Pay now" settles the invoice as a paid one would; "Let it expire" times it out.</p>`
    : `<a class="button" href="${escapeHtml(invoice.returnUrl)}">Return to Terrafund</a>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Sandbox checkout · Terrafund</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="badge">Sandbox payment provider: no real money moves</p>
<h1>${escapeHtml(heading)}</h1>
<dl>
<dt>For</dt><dd>${escapeHtml(invoice.description)}</dd>
<dt>Amount</dt><dd>${escapeHtml(usd(invoice.amountCents))} ${escapeHtml(invoice.currency)}</dd>
<dt>Expires</dt><dd><time datetime="${invoice.expiresAt.toISOString()}">${utc(invoice.expiresAt)}</time></dd>
<dt>Status</dt><dd>${STATUS_TEXT[invoice.status]}</dd>
<dt>Invoice</dt><dd>${escapeHtml(invoice.id)}</dd>
</dl>
${actions}
</main>
</body>
</html>`;
}

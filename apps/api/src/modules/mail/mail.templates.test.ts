import { describe, expect, it } from 'vitest';
import { mailTemplates } from './mail.templates';

/** What the wallet mails (payment rejected, withdrawal requested) say to Ada alike: her name, support's address, the wallet. */
const walletMail = { firstName: 'Ada', supportEmail: 'support@terrafund.test', walletUrl: 'https://app.terrafund.test/wallet' };

describe('the pack activated mail', () => {
  const base = { firstName: 'Ada', pack: 'Gold', amount: '2500.00', endsOn: '2029-01-05', dashboardUrl: 'https://app.terrafund.test/dashboard' };

  it('says which pack is active, until when, for what payment, with a link to the dashboard', () => {
    const mail = mailTemplates.packActivated(base);
    expect(mail.subject).toBe('Your Gold pack is active | Terrafund');
    expect(mail.text).toContain('Hello Ada,');
    expect(mail.text).toContain('We received your payment of 2500.00 USD and your Gold pack is now active until 2029-01-05.');
    expect(mail.text).toContain('Go to your dashboard: https://app.terrafund.test/dashboard');
    expect(mail.text).not.toContain('replaces');
    expect(mail.html).toContain('href="https://app.terrafund.test/dashboard"');
  });

  it('names the pack it replaces on a switch, and escapes what it prints in HTML', () => {
    const mail = mailTemplates.packActivated({ ...base, firstName: '<b>Ada</b>', replacedPack: 'Startium' });
    expect(mail.text).toContain('It replaces your Startium pack, which is no longer active.');
    expect(mail.html).toContain('Hello &lt;b&gt;Ada&lt;/b&gt;,');
    expect(mail.html).not.toContain('<b>Ada</b>');
  });
});

describe('the payment rejected mail', () => {
  it('says the pack was not activated and that support will be in touch, naming their address', () => {
    const mail = mailTemplates.paymentRejected({ ...walletMail, pack: 'Gold', amount: '2500.00' });
    expect(mail.subject).toBe('Your payment could not be accepted | Terrafund');
    expect(mail.text).toContain('We could not accept the payment you sent for your Gold pack (2500.00 USD), so the pack was not activated.');
    expect(mail.text).toContain('Our support team will contact you about returning the money. You can also write to them at support@terrafund.test.');
    expect(mail.html).toContain('href="https://app.terrafund.test/wallet"');
  });
});

describe('the withdrawal requested mail', () => {
  it('names the amount, the address and the time, and says what to do if it was not the member', () => {
    const mail = mailTemplates.withdrawalRequested({ ...walletMail, amount: '40.50', address: 'bc1q<script>', requestedAt: '2026-01-05 12:00 UTC' });
    expect(mail.subject).toBe('A withdrawal was requested from your account | Terrafund');
    expect(mail.text).toContain('A withdrawal of 40.50 Crypto was requested from your account on 2026-01-05 12:00 UTC, to this address:');
    expect(mail.text).toContain('bc1q<script>');
    expect(mail.text).toContain('If you did not ask for this, contact us at once at support@terrafund.test');
    expect(mail.html).toContain('bc1q&lt;script&gt;');
    expect(mail.html).not.toContain('<script>');
  });
});

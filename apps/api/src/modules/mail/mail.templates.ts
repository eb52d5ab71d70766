import { OTP_TTL_SECONDS, RESET_TOKEN_TTL_SECONDS } from '@terrafund/contracts';
import { escapeHtml } from '../../lib/html';

const PRODUCT_NAME = 'Terrafund';

type MailContent = { subject: string; text: string; html: string };

/** One frame for every mail: a plain-text part and an HTML part that say the same thing. */
function compose(subject: string, greetingName: string, paragraphs: string[], highlight?: string, action?: { label: string; url: string }): MailContent {
  const text = [
    `Hello ${greetingName},`,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(highlight ? [highlight, ''] : []),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    `— The ${PRODUCT_NAME} team`,
  ].join('\n');
  const html = `<!doctype html><html><body style="margin:0;background:#f1f5f9;font-family:Segoe UI,Roboto,Arial,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="background:#ffffff;border-radius:12px;padding:32px">
<tr><td style="font-size:20px;font-weight:700;color:#059669;padding-bottom:16px">${PRODUCT_NAME}</td></tr>
<tr><td style="font-size:15px;line-height:1.6">
<p>Hello ${escapeHtml(greetingName)},</p>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${highlight ? `<p style="font-size:28px;font-weight:700;letter-spacing:6px;text-align:center;background:#ecfdf5;border-radius:8px;padding:12px">${escapeHtml(highlight)}</p>` : ''}
${action ? `<p style="text-align:center"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#059669;color:#ffffff;text-decoration:none;padding:12px 24px;border-radius:8px;font-weight:600">${escapeHtml(action.label)}</a></p><p style="font-size:12px;color:#64748b">If the button does not work, open this address: ${escapeHtml(action.url)}</p>` : ''}
<p>— The ${PRODUCT_NAME} team</p>
</td></tr></table></td></tr></table></body></html>`;
  return { subject: `${subject} | ${PRODUCT_NAME}`, text, html };
}

export const mailTemplates = {
  verificationCode: (p: { firstName: string; code: string }) =>
    compose(
      'Your verification code',
      p.firstName,
      [
        `Use this code to verify your e-mail address. It expires in ${OTP_TTL_SECONDS / 60} minutes.`,
        'If you did not create an account, you can ignore this message.',
      ],
      p.code,
    ),
  registrationAttempt: (p: { firstName: string; loginUrl: string; resetUrl: string }) =>
    compose('Someone tried to sign up with your address', p.firstName, [
      'Someone tried to sign up with your address: somebody just tried to create a new account with this e-mail address, which already has an account.',
      `If it was you, sign in at ${p.loginUrl} or reset your password at ${p.resetUrl}. If it was not you, nothing changed and you can ignore this message.`,
    ]),
  passwordReset: (p: { firstName: string; resetUrl: string }) =>
    compose(
      'Reset your password',
      p.firstName,
      [
        `We received a request to reset your password. The link works once and expires in ${RESET_TOKEN_TTL_SECONDS / 60} minutes.`,
        'If you did not ask for this, ignore this message: your password stays as it is.',
      ],
      undefined,
      { label: 'Reset password', url: p.resetUrl },
    ),
  passwordChanged: (p: { firstName: string }) =>
    compose('Your password was changed', p.firstName, [
      'The password of your account was just changed, and every other session was signed out.',
      'If you did not do this, reset your password at once and contact support.',
    ]),
  twoFactorEnabled: (p: { firstName: string; securityUrl: string }) =>
    compose(
      'Two-factor sign-in is on',
      p.firstName,
      [
        'Two-factor authentication was just turned on for your account: signing in now also asks for a code from your authenticator app.',
        'Keep your recovery codes somewhere safe. If you did not do this, reset your password at once and contact support.',
      ],
      undefined,
      { label: 'Review your security settings', url: p.securityUrl },
    ),
  twoFactorDisabled: (p: { firstName: string; securityUrl: string }) =>
    compose(
      'Two-factor sign-in is off',
      p.firstName,
      [
        'Two-factor authentication was just turned off for your account: signing in now asks for your password only.',
        'If you did not do this, reset your password at once, turn two-factor sign-in back on and contact support.',
      ],
      undefined,
      { label: 'Review your security settings', url: p.securityUrl },
    ),
  kycApproved: (p: { firstName: string; walletUrl: string }) =>
    compose(
      'Your identity is verified',
      p.firstName,
      ['Good news: your identity verification was approved. Investing and withdrawals are now open to you.'],
      undefined,
      { label: 'Go to your wallet', url: p.walletUrl },
    ),
  kycRejected: (p: { firstName: string; reason: string; kycUrl: string }) =>
    compose(
      'Your identity verification needs another look',
      p.firstName,
      [
        'We could not approve your identity verification. The reviewer wrote:',
        p.reason,
        'You can correct your details or upload clearer documents and submit again. Contact support if anything is unclear.',
      ],
      undefined,
      { label: 'Review your verification', url: p.kycUrl },
    ),
  withdrawalDecided: (p: { firstName: string; amount: string; completed: boolean; txHash?: string; walletUrl: string }) =>
    p.completed
      ? compose(
          'Your withdrawal was sent',
          p.firstName,
          [
            `Your withdrawal of ${p.amount} Crypto has been completed.`,
            ...(p.txHash ? [`Transaction hash: ${p.txHash}`] : []),
          ],
          undefined,
          { label: 'View your wallet', url: p.walletUrl },
        )
      : compose(
          'Your withdrawal could not be completed',
          p.firstName,
          [
            `Your withdrawal of ${p.amount} Crypto could not be completed. The full amount is back in your wallet balance.`,
            'Check your wallet address and try again, or contact support.',
          ],
          undefined,
          { label: 'View your wallet', url: p.walletUrl },
        ),
  packActivated: (p: { firstName: string; pack: string; amount: string; endsOn: string; replacedPack?: string; dashboardUrl: string }) =>
    compose(
      `Your ${p.pack} pack is active`,
      p.firstName,
      [
        `We received your payment of ${p.amount} USD and your ${p.pack} pack is now active until ${p.endsOn}.`,
        ...(p.replacedPack ? [`It replaces your ${p.replacedPack} pack, which is no longer active.`] : []),
        'Daily dividends are credited to your wallet on business days, starting with the next one.',
      ],
      undefined,
      { label: 'Go to your dashboard', url: p.dashboardUrl },
    ),
  paymentRejected: (p: { firstName: string; pack: string; amount: string; supportEmail: string; walletUrl: string }) =>
    compose(
      'Your payment could not be accepted',
      p.firstName,
      [
        `We could not accept the payment you sent for your ${p.pack} pack (${p.amount} USD), so the pack was not activated.`,
        `Our support team will contact you about returning the money. You can also write to them at ${p.supportEmail}.`,
      ],
      undefined,
      { label: 'View your wallet', url: p.walletUrl },
    ),
  /** Sent as the withdrawal is requested, so a stolen session cannot drain a wallet without the owner hearing of it. */
  withdrawalRequested: (p: { firstName: string; amount: string; address: string; requestedAt: string; supportEmail: string; walletUrl: string }) =>
    compose(
      'A withdrawal was requested from your account',
      p.firstName,
      [
        `A withdrawal of ${p.amount} Crypto was requested from your account on ${p.requestedAt}, to this address:`,
        p.address,
        'The amount has left your balance and waits for our review before it is sent.',
        `If you did not ask for this, contact us at once at ${p.supportEmail} so we can stop it, and change your password.`,
      ],
      undefined,
      { label: 'View your wallet', url: p.walletUrl },
    ),
  investmentMade: (p: { firstName: string; amount: string; project: string; investedAt: string; projectUrl: string }) =>
    compose(
      `Your investment in ${p.project}`,
      p.firstName,
      [
        `You invested ${p.amount} USD from your wallet in ${p.project} on ${p.investedAt}.`,
        'The amount now counts in your total assets as invested. If you did not do this, contact support at once and change your password.',
      ],
      undefined,
      { label: 'View the project', url: p.projectUrl },
    ),
  /** modules/memberships/membership-end.service.ts: MEMBERSHIP_END_NOTICE_DAYS before the end, or later when the server was down then. */
  membershipEndingSoon: (p: { firstName: string; pack: string; daysLeft: number; lastPaidDay: string; walletUrl: string }) =>
    compose(
      `Your ${p.pack} membership ends in ${p.daysLeft} ${p.daysLeft === 1 ? 'day' : 'days'}`,
      p.firstName,
      [
        `Your ${p.pack} membership ends in ${p.daysLeft} ${p.daysLeft === 1 ? 'day' : 'days'}: its last daily dividend is paid on ${p.lastPaidDay}.`,
        'To keep receiving dividends, buy a new pack from your wallet. It starts when its payment is confirmed.',
      ],
      undefined,
      { label: 'Open your wallet', url: p.walletUrl },
    ),
  /** modules/memberships/membership-end.service.ts: at the end, or later when the server was down then. */
  membershipEnded: (p: { firstName: string; pack: string; lastPaidDay: string; walletUrl: string }) =>
    compose(
      `Your ${p.pack} membership has ended`,
      p.firstName,
      [
        `Your ${p.pack} membership has ended: its last daily dividend was paid on ${p.lastPaidDay}, and no more are paid for it.`,
        'Your wallet balance stays yours to withdraw. To receive dividends again, buy a new pack from your wallet. It starts when its payment is confirmed.',
      ],
      undefined,
      { label: 'Buy a new pack', url: p.walletUrl },
    ),
  adminPromoted: (p: { firstName: string; loginUrl: string; supportEmail: string }) =>
    compose(
      'Your account was made an administrator',
      p.firstName,
      [
        'The operator of Terrafund has made your account an administrator. Its password was replaced by the one the operator set, and every session of the account was signed out.',
        `If you did not expect this, contact ${p.supportEmail} at once.`,
      ],
      undefined,
      { label: 'Sign in', url: p.loginUrl },
    ),
} as const;

export type MailTemplateName = keyof typeof mailTemplates;

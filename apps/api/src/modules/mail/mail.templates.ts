import { DATA_EXPORT_TTL_DAYS, OTP_TTL_SECONDS, RESET_TOKEN_TTL_SECONDS, type NotificationPreferenceKind } from '@terrafund/contracts';
import { DEFAULT_LANGUAGE, INTL_LOCALES, type Language } from '@terrafund/contracts/i18n';
import { escapeHtml } from '../../lib/html';
import { localAmount, translatorFor } from '../../lib/i18n';

const PRODUCT_NAME = 'Terrafund';

type MailContent = { subject: string; text: string; html: string };

type Translate = ReturnType<typeof translatorFor>;

/**
 * A mail's words in one language (the `mail` namespace of packages/contracts/src/i18n), and its amounts and dates
 * said the language's way. The senders pass them in the API's fixed forms (`2500.00`, `2029-01-05`,
 * `2026-01-05 12:00 UTC`), which the English mail prints as they are.
 */
export type MailLanguage = { language: Language; t: Translate; amount(text: string): string; date(text: string): string };

const DAY = /^(\d{4}-\d{2}-\d{2})(?: (\d{2}:\d{2}) UTC)?$/;

export function mailLanguage(language: Language = DEFAULT_LANGUAGE): MailLanguage {
  const t = translatorFor(language);
  if (language === DEFAULT_LANGUAGE) return { language, t, amount: (text) => text, date: (text) => text };
  const locale = INTL_LOCALES[language];
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
  const dayAndTime = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
  return {
    language,
    t,
    amount: (text) => localAmount(language, text),
    date: (text) => {
      const match = DAY.exec(text);
      if (!match) return text;
      const [, date, time] = match;
      return time ? `${dayAndTime.format(new Date(`${date}T${time}:00Z`))} UTC` : day.format(new Date(`${date}T00:00:00Z`));
    },
  };
}

/** One frame for every mail: a plain-text part and an HTML part that say the same thing. */
function compose(
  { t }: MailLanguage,
  subject: string,
  greetingName: string,
  paragraphs: string[],
  { highlight, action }: { highlight?: string; action?: { label: string; url: string } } = {},
): MailContent {
  const hello = (name: string) => t('mail:frame.hello', { name });
  const signOff = t('mail:frame.signOff', { product: PRODUCT_NAME });
  const text = [
    hello(greetingName),
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(highlight ? [highlight, ''] : []),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    signOff,
  ].join('\n');
  const html = `<!doctype html><html><body style="margin:0;background:#f1f5f9;font-family:Segoe UI,Roboto,Arial,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="background:#ffffff;border-radius:12px;padding:32px">
<tr><td style="font-size:20px;font-weight:700;color:#059669;padding-bottom:16px">${PRODUCT_NAME}</td></tr>
<tr><td style="font-size:15px;line-height:1.6">
<p>${escapeHtml(hello(greetingName))}</p>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${highlight ? `<p style="font-size:28px;font-weight:700;letter-spacing:6px;text-align:center;background:#ecfdf5;border-radius:8px;padding:12px">${escapeHtml(highlight)}</p>` : ''}
${action ? `<p style="text-align:center"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#059669;color:#ffffff;text-decoration:none;padding:12px 24px;border-radius:8px;font-weight:600">${escapeHtml(action.label)}</a></p><p style="font-size:12px;color:#64748b">${escapeHtml(t('mail:frame.buttonFallback', { url: action.url }))}</p>` : ''}
<p>${escapeHtml(signOff)}</p>
</td></tr></table></td></tr></table></body></html>`;
  return { subject: `${subject} | ${PRODUCT_NAME}`, text, html };
}

/** A template's texts: `say('subject', values)` is `mail:<template>.subject` in the mail's language. */
const textsOf = (l: MailLanguage, template: string) => (key: string, values: Record<string, string | number> = {}) => l.t(`mail:${template}.${key}`, values);
type Say = ReturnType<typeof textsOf>;

/** A template's button: its `action` text, leading to `url`. */
const button = (say: Say, url: string) => ({ label: say('action'), url });

/** Each mail, in the recipient's language (English by default: the spec's words). */
export const mailTemplates = {
  verificationCode: (p: { firstName: string; code: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'verificationCode');
    return compose(l, say('subject'), p.firstName, [say('useCode', { minutes: OTP_TTL_SECONDS / 60 }), say('ignore')], { highlight: p.code });
  },
  registrationAttempt: (p: { firstName: string; loginUrl: string; resetUrl: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'registrationAttempt');
    return compose(l, say('subject'), p.firstName, [say('what'), say('ifYou', { loginUrl: p.loginUrl, resetUrl: p.resetUrl })]);
  },
  passwordReset: (p: { firstName: string; resetUrl: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'passwordReset');
    return compose(l, say('subject'), p.firstName, [say('request', { minutes: RESET_TOKEN_TTL_SECONDS / 60 }), say('ignore')], {
      action: button(say, p.resetUrl),
    });
  },
  passwordChanged: (p: { firstName: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'passwordChanged');
    return compose(l, say('subject'), p.firstName, [say('what'), say('ifNotYou')]);
  },
  twoFactorEnabled: (p: { firstName: string; securityUrl: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'twoFactorEnabled');
    return compose(l, say('subject'), p.firstName, [say('what'), say('keepCodes')], { action: button(say, p.securityUrl) });
  },
  twoFactorDisabled: (p: { firstName: string; securityUrl: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'twoFactorDisabled');
    return compose(l, say('subject'), p.firstName, [say('what'), say('ifNotYou')], { action: button(say, p.securityUrl) });
  },
  twoFactorFailures: (p: { firstName: string; wrongCodes: number; at: string; resetUrl: string; securityUrl: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'twoFactorFailures');
    return compose(l, say('subject'), p.firstName, [say('what', { wrongCodes: p.wrongCodes, at: l.date(p.at) }), say('ifNotYou'), say('hourly')], {
      action: button(say, p.resetUrl),
    });
  },
  twoFactorReset: (p: { firstName: string; securityUrl: string; supportEmail: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'twoFactorReset');
    return compose(l, say('subject'), p.firstName, [say('what'), say('again'), say('ifNotYou', { supportEmail: p.supportEmail })], {
      action: button(say, p.securityUrl),
    });
  },
  kycApproved: (p: { firstName: string; walletUrl: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'kycApproved');
    return compose(l, say('subject'), p.firstName, [say('what')], { action: button(say, p.walletUrl) });
  },
  kycRejected: (p: { firstName: string; reason: string; kycUrl: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'kycRejected');
    return compose(l, say('subject'), p.firstName, [say('what'), p.reason, say('next')], { action: button(say, p.kycUrl) });
  },
  /** A first withdrawal to an address: nothing is sent until the member follows this link (30 minutes, once). */
  withdrawalConfirm: (
    p: { firstName: string; amount: string; coin: string; address: string; requestedAt: string; confirmUrl: string; minutes: number; supportEmail: string },
    l = mailLanguage(),
  ) => {
    const say = textsOf(l, 'withdrawalConfirm');
    return compose(
      l,
      say('subject'),
      p.firstName,
      [
        say('what', { amount: l.amount(p.amount), coin: p.coin, requestedAt: l.date(p.requestedAt) }),
        p.address,
        say('nothingSent', { minutes: p.minutes }),
        say('ifNotYou', { supportEmail: p.supportEmail }),
      ],
      { action: button(say, p.confirmUrl) },
    );
  },
  withdrawalDecided: (p: { firstName: string; amount: string; completed: boolean; txHash?: string; reason?: string; walletUrl: string }, l = mailLanguage()) => {
    const amount = l.amount(p.amount);
    if (p.completed) {
      const say = textsOf(l, 'withdrawalCompleted');
      return compose(l, say('subject'), p.firstName, [say('what', { amount }), ...(p.txHash ? [say('txHash', { txHash: p.txHash })] : [])], {
        action: button(say, p.walletUrl),
      });
    }
    const say = textsOf(l, 'withdrawalFailed');
    return compose(
      l,
      say('subject'),
      p.firstName,
      [say('what', { amount }), ...(p.reason ? [say('reason', { reason: p.reason })] : []), say('next')],
      { action: button(say, p.walletUrl) },
    );
  },
  packActivated: (p: { firstName: string; pack: string; amount: string; endsOn: string; replacedPack?: string; dashboardUrl: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'packActivated');
    return compose(
      l,
      say('subject', { pack: p.pack }),
      p.firstName,
      [
        say('what', { amount: l.amount(p.amount), pack: p.pack, endsOn: l.date(p.endsOn) }),
        ...(p.replacedPack ? [say('replaces', { replacedPack: p.replacedPack })] : []),
        say('dividends'),
      ],
      { action: button(say, p.dashboardUrl) },
    );
  },
  paymentRejected: (p: { firstName: string; pack: string; amount: string; supportEmail: string; walletUrl: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'paymentRejected');
    return compose(
      l,
      say('subject'),
      p.firstName,
      [say('what', { pack: p.pack, amount: l.amount(p.amount) }), say('support', { supportEmail: p.supportEmail })],
      { action: button(say, p.walletUrl) },
    );
  },
  /** Sent as the withdrawal is requested, so a stolen session cannot drain a wallet without the owner hearing of it. */
  withdrawalRequested: (
    p: { firstName: string; amount: string; address: string; requestedAt: string; supportEmail: string; walletUrl: string },
    l = mailLanguage(),
  ) => {
    const say = textsOf(l, 'withdrawalRequested');
    return compose(
      l,
      say('subject'),
      p.firstName,
      [
        say('what', { amount: l.amount(p.amount), requestedAt: l.date(p.requestedAt) }),
        p.address,
        say('review'),
        say('ifNotYou', { supportEmail: p.supportEmail }),
      ],
      { action: button(say, p.walletUrl) },
    );
  },
  investmentMade: (p: { firstName: string; amount: string; project: string; investedAt: string; projectUrl: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'investmentMade');
    return compose(
      l,
      say('subject', { project: p.project }),
      p.firstName,
      [say('what', { amount: l.amount(p.amount), project: p.project, investedAt: l.date(p.investedAt) }), say('counts')],
      { action: button(say, p.projectUrl) },
    );
  },
  /** modules/memberships/membership-end.service.ts: MEMBERSHIP_END_NOTICE_DAYS before the end, or later when the server was down then. */
  membershipEndingSoon: (p: { firstName: string; pack: string; daysLeft: number; lastPaidDay: string; walletUrl: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'membershipEndingSoon');
    return compose(
      l,
      say('subject', { pack: p.pack, count: p.daysLeft }),
      p.firstName,
      [say('what', { pack: p.pack, count: p.daysLeft, lastPaidDay: l.date(p.lastPaidDay) }), say('keep')],
      { action: button(say, p.walletUrl) },
    );
  },
  /** modules/memberships/membership-end.service.ts: at the end, or later when the server was down then. */
  membershipEnded: (p: { firstName: string; pack: string; lastPaidDay: string; walletUrl: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'membershipEnded');
    return compose(l, say('subject', { pack: p.pack }), p.firstName, [say('what', { pack: p.pack, lastPaidDay: l.date(p.lastPaidDay) }), say('next')], {
      action: button(say, p.walletUrl),
    });
  },
  adminPromoted: (p: { firstName: string; loginUrl: string; supportEmail: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'adminPromoted');
    return compose(l, say('subject'), p.firstName, [say('what'), say('ifNotExpected', { supportEmail: p.supportEmail })], { action: button(say, p.loginUrl) });
  },
  /** Issue 34: one mail per payout run that paid the member, never one per day caught up (modules/privacy/dividend-mail.ts). */
  dividendsPaid: (p: { firstName: string; amount: string; days: number; balance: string; walletUrl: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'dividendsPaid');
    const amount = l.amount(p.amount);
    return compose(
      l,
      say('subject', { amount }),
      p.firstName,
      [p.days === 1 ? say('oneDay', { amount }) : say('severalDays', { amount, days: p.days }), say('balance', { balance: l.amount(p.balance) })],
      { action: button(say, p.walletUrl) },
    );
  },
  /** Issue 34, the marketing kind: an admin created a project open for investment. */
  newProject: (p: { firstName: string; project: string; location: string; projectUrl: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'newProject');
    return compose(l, say('subject', { project: p.project }), p.firstName, [say('what', { project: p.project, location: p.location })], {
      action: button(say, p.projectUrl),
    });
  },
  /** The member asked for it (POST /api/users/data-export): always sent. */
  dataExportReady: (p: { firstName: string; privacyUrl: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'dataExportReady');
    return compose(l, say('subject'), p.firstName, [say('what', { days: DATA_EXPORT_TTL_DAYS }), say('ifNotYou')], { action: button(say, p.privacyUrl) });
  },
  /** Sent once, to the address the account had, as it is closed. */
  accountClosed: (p: { firstName: string; supportEmail: string }, l = mailLanguage()) => {
    const say = textsOf(l, 'accountClosed');
    return compose(l, say('subject'), p.firstName, [say('what'), say('erased'), say('ifNotYou', { supportEmail: p.supportEmail })]);
  },
} as const;

export type MailTemplateName = keyof typeof mailTemplates;

/**
 * The preference kind each mail belongs to (Profile → Notifications), or null for security mail, which always goes
 * and carries no unsubscribe link: codes, reset links, two-factor changes, the alerts that money left the account
 * (a withdrawal requested or to be confirmed, an investment made: a stolen session must not be able to silence them), the
 * operator's promotion, the data export asked for and the account closing.
 */
export const MAIL_KINDS: Record<MailTemplateName, NotificationPreferenceKind | null> = {
  verificationCode: null,
  registrationAttempt: null,
  passwordReset: null,
  passwordChanged: null,
  twoFactorEnabled: null,
  twoFactorDisabled: null,
  twoFactorFailures: null,
  twoFactorReset: null,
  adminPromoted: null,
  withdrawalRequested: null,
  withdrawalConfirm: null,
  investmentMade: null,
  dataExportReady: null,
  accountClosed: null,
  kycApproved: 'kyc',
  kycRejected: 'kyc',
  withdrawalDecided: 'withdrawals',
  packActivated: 'payments',
  paymentRejected: 'payments',
  membershipEndingSoon: 'membership',
  membershipEnded: 'membership',
  dividendsPaid: 'dividends',
  newProject: 'projects',
};

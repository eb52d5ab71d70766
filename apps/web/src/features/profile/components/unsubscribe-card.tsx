import { Link } from 'react-router';
import { messages, NOTIFICATION_PREFERENCE_KINDS, NOTIFICATION_PREFERENCE_LABELS, type NotificationPreferenceKind } from '@terrafund/contracts';
import { AlertTriangleIcon, MailCheckIcon, MailXIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { paths } from '@/config/paths';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { i18n, useT } from '@/lib/i18n';
import { useUnsubscribe } from '../api/unsubscribe';

const tones = {
  brand: 'bg-emerald-50 text-emerald-600 dark:bg-emerald-500/10 dark:text-emerald-400',
  warning: 'bg-amber-50 text-amber-600 dark:bg-amber-500/10 dark:text-amber-400',
};

function Header({ icon, tone, title, children }: { icon: ReactNode; tone: keyof typeof tones; title: string; children: ReactNode }) {
  return (
    <div className="mb-8">
      <span className={cn('mb-5 flex h-12 w-12 items-center justify-center rounded-xl', tones[tone])}>{icon}</span>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl dark:text-white">{title}</h1>
      <div className="mt-2 space-y-2 text-sm text-slate-500 sm:text-base dark:text-slate-400">{children}</div>
    </div>
  );
}

/**
 * The kind of mail a link's token names, to say before the press which e-mails stop: the server's tokens read
 * `<member id>.<kind>.<signature>` (apps/api mail-preferences.ts). Only a hint: the server checks the signature, and a
 * token of another shape is explained in general terms.
 */
export function kindOfToken(token: string): NotificationPreferenceKind | undefined {
  const kind = token.split('.')[1];
  return (NOTIFICATION_PREFERENCE_KINDS as readonly string[]).includes(kind ?? '') ? (kind as NotificationPreferenceKind) : undefined;
}

/** Where to go next: the member's own settings when signed in here, else the landing page. */
function NextLinks() {
  const auth = useAuth();
  const signedIn = auth.status === 'authenticated';
  const { t } = useT('profile');
  return (
    <p className="mt-8 text-center text-sm">
      <Link
        to={signedIn ? paths.profileNotifications.getHref() : paths.home.getHref()}
        className="font-medium text-emerald-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-emerald-500 dark:text-emerald-400"
      >
        {signedIn ? t('unsubscribe.preferences') : t('unsubscribe.home')}
      </Link>
    </p>
  );
}

/**
 * /unsubscribe?token=… (issue 34): the page an optional mail's unsubscribe link opens, without signing in. It says
 * what the link does and does it only when the button is pressed (a mail scanner that follows links changes
 * nothing); mail clients' one-click unsubscribe (RFC 8058) posts to the server directly instead.
 */
export function UnsubscribeCard({ token }: { token: string | null }) {
  const unsubscribe = useUnsubscribe();
  const { t, say } = useT('profile');
  const kindName = (kind: NotificationPreferenceKind) => t(`notifications.kinds.${kind}`);

  if (!token || unsubscribe.isError) {
    return (
      <div role={unsubscribe.isError ? 'alert' : undefined}>
        <title>{t('unsubscribe.invalidDocumentTitle')}</title>
        <Header icon={<AlertTriangleIcon className="h-6 w-6" />} tone="warning" title={t('unsubscribe.invalidTitle')}>
          <p>{token ? errorMessage(unsubscribe.error, say(messages.privacy.unsubscribeFailed)) : say(messages.privacy.unsubscribeInvalid)}</p>
        </Header>
        {token && (
          <Button size="lg" className="w-full" onClick={() => unsubscribe.reset()}>
            {t('unsubscribe.retry')}
          </Button>
        )}
        <NextLinks />
      </div>
    );
  }

  if (unsubscribe.isSuccess) {
    const { kind, message } = unsubscribe.data;
    return (
      <div role="status">
        <title>{t('unsubscribe.doneDocumentTitle')}</title>
        <Header icon={<MailCheckIcon className="h-6 w-6" />} tone="brand" title={t('unsubscribe.doneTitle')}>
          {/* messages.privacy.unsubscribed, with the kind's name in the same language as the sentence. */}
          <p>{message || i18n.t('messages:privacy.unsubscribed', { kind: kindName(kind), defaultValue: messages.privacy.unsubscribed(NOTIFICATION_PREFERENCE_LABELS[kind]) })}</p>
        </Header>
        <NextLinks />
      </div>
    );
  }

  const kind = kindOfToken(token);
  return (
    <div>
      <title>{t('unsubscribe.documentTitle')}</title>
      <Header icon={<MailXIcon className="h-6 w-6" />} tone="brand" title={t('unsubscribe.title')}>
        {kind ? (
          <p>
            {t('unsubscribe.kindBefore')}
            <strong className="font-semibold text-slate-900 dark:text-white">{kindName(kind)}</strong>
            {t('unsubscribe.kindAfter')}
          </p>
        ) : (
          <p>
            {t('unsubscribe.general')}
          </p>
        )}
        <p>{t('unsubscribe.security')}</p>
      </Header>
      <Button size="lg" className="w-full" isLoading={unsubscribe.isPending} onClick={() => unsubscribe.mutate({ token })}>
        {kind ? t('unsubscribe.fromKind', { kind: kindName(kind) }) : t('unsubscribe.button')}
      </Button>
      <NextLinks />
    </div>
  );
}

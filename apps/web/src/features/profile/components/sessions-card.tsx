import toast from 'react-hot-toast';
import { messages, type Session } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { GlobeIcon } from 'lucide-react';
import { LoadingBlock } from '@/components/ui/load-state';
import { formatDateTime } from '@/lib/format';
import { i18n, useT } from '@/lib/i18n';
import { useSessions } from '../api/get-sessions';
import { useRevokeOtherSessions } from '../api/revoke-other-sessions';
import { useRevokeSession } from '../api/revoke-session';
import { ProfileCard } from './profile-card';
import { wrappingButton } from './section-header';

/** A readable name for a browser's user agent: enough to recognise one's own devices. */
export function deviceName(userAgent: string | null) {
  if (!userAgent) return i18n.t('profile:sessions.unknown');
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : undefined;
  const system = /iPhone|iPad/.test(userAgent)
    ? 'iOS'
    : /Android/.test(userAgent)
      ? 'Android'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : undefined;
  return browser && system ? i18n.t('profile:sessions.device', { browser, system }) : userAgent.slice(0, 60);
}

function SessionRow({ session }: { session: Session }) {
  const revoke = useRevokeSession();
  const { t, say } = useT('profile');
  return (
    <li className="flex items-center gap-3 py-3">
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-slate-900 dark:text-white" title={session.userAgent ?? undefined}>
          {deviceName(session.userAgent)}
          {session.current && <span className="ml-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-700 dark:bg-emerald-500/10 dark:text-emerald-400">{t('sessions.thisDevice')}</span>}
        </p>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          {t('sessions.signedIn', { created: formatDateTime(session.createdAt), seen: formatDateTime(session.lastSeenAt) })}
        </p>
      </div>
      {!session.current && (
        <Button
          variant="outline"
          size="sm"
          isLoading={revoke.isPending}
          onClick={() => revoke.mutate(session.id, { onSuccess: () => toast.success(say(messages.sessions.revoked)) })}
          aria-label={t('sessions.signOutLabel', { device: deviceName(session.userAgent) })}
        >
          {t('sessions.signOut')}
        </Button>
      )}
    </li>
  );
}

/** Profile → Security: where the member is signed in, with Sign out for each and everywhere else (issue 15). */
export function SessionsCard() {
  const sessions = useSessions();
  const revokeOthers = useRevokeOtherSessions();
  const { t, say } = useT('profile');
  const others = (sessions.data ?? []).filter((s) => !s.current).length;
  return (
    <ProfileCard title={t('sessions.title')}>
      <div className="px-5 py-3 sm:px-6">
        {sessions.isPending ? (
          <LoadingBlock label={t('sessions.loading')} className="py-6" />
        ) : sessions.isError ? (
          <p className="py-3 text-sm text-slate-500">{say(messages.sessions.loadFailed)}</p>
        ) : (
          <ul aria-label={t('sessions.label')} className="divide-y divide-slate-200 dark:divide-slate-800">
            {sessions.data.map((session) => (
              <SessionRow key={session.id} session={session} />
            ))}
          </ul>
        )}
      </div>
      <div className="flex items-center gap-2 px-5 pb-5 sm:px-6">
        <GlobeIcon className="h-4 w-4 text-slate-400" />
        <Button
          variant="outline"
          size="sm"
          className={`flex-1 ${wrappingButton}`}
          disabled={others === 0}
          isLoading={revokeOthers.isPending}
          onClick={() => revokeOthers.mutate(undefined, { onSuccess: () => toast.success(say(messages.sessions.othersRevoked)) })}
        >
          {t('sessions.signOutOthers')}
        </Button>
      </div>
    </ProfileCard>
  );
}

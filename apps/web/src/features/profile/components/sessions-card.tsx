import toast from 'react-hot-toast';
import { messages, type Session } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { GlobeIcon } from 'lucide-react';
import { LoadingBlock } from '@/components/ui/load-state';
import { formatDateTime } from '@/lib/format';
import { useSessions } from '../api/get-sessions';
import { useRevokeOtherSessions } from '../api/revoke-other-sessions';
import { useRevokeSession } from '../api/revoke-session';
import { SectionHeader } from './section-header';

/** A readable name for a browser's user agent: enough to recognise one's own devices. */
export function deviceName(userAgent: string | null) {
  if (!userAgent) return 'Unknown device';
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
  return browser && system ? `${browser} on ${system}` : userAgent.slice(0, 60);
}

function SessionRow({ session }: { session: Session }) {
  const revoke = useRevokeSession();
  return (
    <li className="flex items-center gap-3 py-3">
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-slate-900 dark:text-white" title={session.userAgent ?? undefined}>
          {deviceName(session.userAgent)}
          {session.current && <span className="ml-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-700 dark:bg-emerald-500/10 dark:text-emerald-400">This device</span>}
        </p>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Signed in {formatDateTime(session.createdAt)} · last active {formatDateTime(session.lastSeenAt)}
        </p>
      </div>
      {!session.current && (
        <Button
          variant="outline"
          size="sm"
          isLoading={revoke.isPending}
          onClick={() => revoke.mutate(session.id, { onSuccess: () => toast.success(messages.sessions.revoked) })}
          aria-label={`Sign out ${deviceName(session.userAgent)}`}
        >
          Sign out
        </Button>
      )}
    </li>
  );
}

/** Profile → Security: where the member is signed in, with Sign out for each and everywhere else (issue 15). */
export function SessionsCard() {
  const sessions = useSessions();
  const revokeOthers = useRevokeOtherSessions();
  const others = (sessions.data ?? []).filter((s) => !s.current).length;
  return (
    <Card>
      <SectionHeader title="Where you're signed in" />
      <div className="px-5 py-3 sm:px-6">
        {sessions.isPending ? (
          <LoadingBlock label="Loading sessions" className="py-6" />
        ) : sessions.isError ? (
          <p className="py-3 text-sm text-slate-500">{messages.sessions.loadFailed}</p>
        ) : (
          <ul aria-label="Sessions" className="divide-y divide-slate-200 dark:divide-slate-800">
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
          className="flex-1"
          disabled={others === 0}
          isLoading={revokeOthers.isPending}
          onClick={() => revokeOthers.mutate(undefined, { onSuccess: () => toast.success(messages.sessions.othersRevoked) })}
        >
          Sign out everywhere else
        </Button>
      </div>
    </Card>
  );
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { messages, type Session } from '@terrafund/contracts';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { localizeMessage } from '@terrafund/contracts/i18n';
import { i18n } from '@/lib/i18n';

export const getSessions = () => api.get<Session[]>('/users/sessions');

export const sessionsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.sessions(), queryFn: getSessions, meta: { errorToast: () => localizeMessage(i18n.t, messages.sessions.loadFailed) } });

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}

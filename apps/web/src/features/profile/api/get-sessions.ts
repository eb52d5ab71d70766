import { queryOptions, useQuery } from '@tanstack/react-query';
import { messages, type Session } from '@terrafund/contracts';
import { api } from '@/lib/api-client';

export const sessionsQueryKey = ['users', 'sessions'] as const;

export const getSessions = () => api.get<Session[]>('/users/sessions');

export const sessionsQueryOptions = () =>
  queryOptions({ queryKey: sessionsQueryKey, queryFn: getSessions, meta: { errorToast: messages.sessions.loadFailed } });

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messages, type InvestBody, type InvestResponse } from '@terrafund/contracts';
import { api, errorMessage } from '@/lib/api-client';
import { formatAmount } from '../utils/project-figures';
import { queryKeys } from '@/lib/query-keys';
import { localizeMessage } from '@terrafund/contracts/i18n';
import { i18n } from '@/lib/i18n';
import { toastSuccess } from '@/lib/toasts';

/** POST /projects/{id}/invest: moves the amount from the wallet into the project (docs/product.md §6 Projects and investing). */
export const investInProject = (projectId: string, body: InvestBody) =>
  api.post<InvestResponse>(`/projects/${encodeURIComponent(projectId)}/invest`, body);

export function useInvestInProject(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InvestBody) => investInProject(projectId, body),
    onSuccess: ({ project }, { amount }) => {
      toastSuccess(messages.projects.investing(formatAmount(amount)));
      // The answer already is the project after the investment: shown at once, then confirmed below.
      queryClient.setQueryData(queryKeys.project(projectId), project);
      void Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.project(projectId), exact: true }),
        queryClient.invalidateQueries({ queryKey: queryKeys.projectLists() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.profile(), exact: true }),
        // Total Assets on the dashboard counts what was invested; the investment is one of the member's transactions.
        queryClient.invalidateQueries({ queryKey: queryKeys.dashboard(), exact: true }),
        queryClient.invalidateQueries({ queryKey: queryKeys.transactions() }),
      ]);
    },
    // A refusal often means the project moved on (someone else filled it, an admin closed it): show it as it is now.
    onError: () => void queryClient.invalidateQueries({ queryKey: queryKeys.project(projectId), exact: true }),
    meta: { errorToast: (error) => errorMessage(error, localizeMessage(i18n.t, messages.projects.investFailed)) },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { messages, type InvestBody, type InvestResponse } from '@terrafund/contracts';
import { api, errorMessage } from '@/lib/api-client';
import { profileQueryKey } from '@/lib/auth';
import { formatAmount } from '../utils/project-figures';
import { projectKey } from './get-project';
import { projectsListKey } from './get-projects';

/** The dashboard's figures (features/dashboard/api/get-dashboard.ts): Total Assets counts what was invested. */
const dashboardKey = ['users', 'dashboard'] as const;
/** The member's own transactions (the wallet's history): the investment is one of them. */
const transactionsKey = ['transactions'] as const;

/** POST /projects/{id}/invest: moves the amount from the wallet into the project (docs/product.md §6 Projects and investing). */
export const investInProject = (projectId: string, body: InvestBody) =>
  api.post<InvestResponse>(`/projects/${encodeURIComponent(projectId)}/invest`, body);

export function useInvestInProject(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InvestBody) => investInProject(projectId, body),
    onSuccess: ({ project }, { amount }) => {
      toast.success(messages.projects.investing(formatAmount(amount)));
      // The answer already is the project after the investment: shown at once, then confirmed below.
      queryClient.setQueryData(projectKey(projectId), project);
      void Promise.all([
        queryClient.invalidateQueries({ queryKey: projectKey(projectId), exact: true }),
        queryClient.invalidateQueries({ queryKey: projectsListKey }),
        queryClient.invalidateQueries({ queryKey: profileQueryKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: dashboardKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: transactionsKey }),
      ]);
    },
    // A refusal often means the project moved on (someone else filled it, an admin closed it): show it as it is now.
    onError: () => void queryClient.invalidateQueries({ queryKey: projectKey(projectId), exact: true }),
    meta: { errorToast: (error) => errorMessage(error, messages.projects.investFailed) },
  });
}

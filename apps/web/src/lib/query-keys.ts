import type { ProjectStatus, ProjectType } from '@terrafund/contracts';

/**
 * Every TanStack Query key of the app, in one table. A change made in one feature often makes another
 * feature's data stale (an investment: the dashboard and the wallet's history; a withdrawal decision: the admin
 * dashboard), and features do not import each other: both name the data here instead of repeating its value.
 * `…Lists()`, `…Details()` and `auditLogs()` are prefixes: they name every query under them, each search or id
 * its own (what an invalidation without `exact` reaches). Here, too, features' keys that share a prefix
 * (`kyc`, `projects`, `users`) are seen side by side.
 */
const transactions = ['transactions'] as const;
const projectLists = ['projects', 'list'] as const;
const adminTransactionLists = ['admin', 'transactions', 'list'] as const;
const adminTransactionDetails = ['admin', 'transactions', 'detail'] as const;
const adminUserLists = ['admin', 'users', 'list'] as const;
const auditLogs = ['admin', 'audit'] as const;

export const queryKeys = {
  // The member's own data.
  profile: () => ['users', 'profile'] as const,
  /** The dashboard's figures (wallet balance, total assets): what an investment or a withdrawal changes. */
  dashboard: () => ['users', 'dashboard'] as const,
  investmentPerformance: (period: string) => ['users', 'investment-performance', period] as const,
  sessions: () => ['users', 'sessions'] as const,
  withdrawalAddresses: () => ['users', 'withdrawal-addresses'] as const,
  dataExports: () => ['users', 'data-export'] as const,
  notificationPreferences: () => ['users', 'notification-preferences'] as const,
  notifications: () => ['notifications'] as const,
  /** The member's own transactions, the history and each detail: what a deposit, a withdrawal or an investment makes stale. */
  transactions: () => transactions,
  /** Under the history's key, so what stales the history stales the detail. */
  transaction: (id: string) => [...transactions, 'detail', id] as const,
  packPayments: () => ['pack-payments'] as const,
  plans: () => ['plans'] as const,
  /** A member's own uploaded document's signed link. */
  kycDocumentLink: (fileUrl: string) => ['kyc', 'document-link', fileUrl] as const,

  // The catalogue: the member's and the admin's screens keep it under the same keys, with the same filter
  // shape, so a change on either refreshes both and both share what is already loaded.
  projectLists: () => projectLists,
  projectList: (filters: { search: string; type: ProjectType | ''; status: ProjectStatus | '' }) => [...projectLists, filters] as const,
  project: (id: string) => ['projects', 'detail', id] as const,

  admin: {
    /** The admin dashboard's figures and its recent transactions: what a withdrawal or payment decision changes. */
    stats: () => ['admin', 'dashboard', 'stats'] as const,
    recentTransactions: () => ['admin', 'dashboard', 'transactions'] as const,
    /** Every loaded transactions list, whatever its search. */
    transactionLists: () => adminTransactionLists,
    transactionList: (search: string) => [...adminTransactionLists, { search }] as const,
    /** Every opened transaction's detail. */
    transactionDetails: () => adminTransactionDetails,
    transactionDetail: (id: string) => [...adminTransactionDetails, id] as const,
    /** Every page of every users search: what a KYC decision makes stale. */
    userLists: () => adminUserLists,
    userList: (filter: { search: string; page: number }) => [...adminUserLists, filter] as const,
    pendingUsers: () => ['admin', 'users', 'pending'] as const,
    userDetail: (userId: string) => ['admin', 'users', 'detail', userId] as const,
    /** A member's KYC document's signed link, as an admin opens or saves it. */
    kycDocumentLink: (type: string, id: string, disposition: string) => ['kyc', 'document-link', type, id, disposition] as const,
    heldPayments: () => ['admin', 'payments', 'review'] as const,
    undeliverableMail: () => ['admin', 'mail', 'undeliverable'] as const,
    auditLogs: () => auditLogs,
    auditLog: (filters: Readonly<Record<string, string>>) => [...auditLogs, filters] as const,
  },
};

/** Every route of the app (docs/product.md §2.1 Route table) and how to link to it. Routes and links read this one table. */
export const paths = {
  home: { path: '/', getHref: () => '/' },

  login: { path: '/login', getHref: () => '/login' },
  register: { path: '/register', getHref: () => '/register' },
  forgotPassword: { path: '/forgot-password', getHref: () => '/forgot-password' },
  resetPassword: {
    path: '/reset-password',
    getHref: (token?: string) => (token ? `/reset-password?token=${encodeURIComponent(token)}` : '/reset-password'),
  },

  /** The page an optional mail's unsubscribe link opens (public, no sign-in). */
  unsubscribe: {
    path: '/unsubscribe',
    getHref: (token?: string) => (token ? `/unsubscribe?token=${encodeURIComponent(token)}` : '/unsubscribe'),
  },

  dashboard: { path: '/dashboard', getHref: () => '/dashboard' },
  projects: { path: '/projects', getHref: () => '/projects' },
  project: { path: '/projects/:id', getHref: (id: string) => `/projects/${encodeURIComponent(id)}` },
  wallet: { path: '/wallet', getHref: () => '/wallet' },
  paymentSuccess: { path: '/wallet/payment/success', getHref: () => '/wallet/payment/success' },
  paymentTimeout: { path: '/wallet/payment/timeout', getHref: () => '/wallet/payment/timeout' },
  /** The link mailed for a first withdrawal to an address; public (the token is the credential). */
  withdrawalConfirm: {
    path: '/wallet/withdrawals/confirm',
    getHref: (token: string) => `/wallet/withdrawals/confirm?token=${encodeURIComponent(token)}`,
  },
  profile: { path: '/profile', getHref: () => '/profile' },
  /** Profile → Security: two-factor sign-in and sessions (where an admin without 2FA is sent). */
  profileSecurity: { path: '/profile', getHref: () => '/profile#security' },
  /** Profile → Notifications (which mails are sent) and Profile → Privacy (data export, closing). */
  profileNotifications: { path: '/profile', getHref: () => '/profile#notifications' },
  profilePrivacy: { path: '/profile', getHref: () => '/profile#privacy' },
  kyc: { path: '/kyc', getHref: () => '/kyc' },

  admin: { path: '/admin', getHref: () => '/admin' },
  adminDashboard: { path: '/admin/dashboard', getHref: () => '/admin/dashboard' },
  adminUsers: { path: '/admin/users', getHref: () => '/admin/users' },
  adminUser: { path: '/admin/users/:userId', getHref: (userId: string) => `/admin/users/${encodeURIComponent(userId)}` },
  adminTransactions: { path: '/admin/transactions', getHref: () => '/admin/transactions' },
  adminAudit: { path: '/admin/audit', getHref: () => '/admin/audit' },
  adminMail: { path: '/admin/mail', getHref: () => '/admin/mail' },
  adminProjects: { path: '/admin/projects', getHref: () => '/admin/projects' },
  adminProjectAdd: { path: '/admin/projects/add', getHref: () => '/admin/projects/add' },
  adminProjectEdit: {
    path: '/admin/projects/edit',
    getHref: (id: string) => `/admin/projects/edit?id=${encodeURIComponent(id)}`,
  },
} as const;

/** Where a signed-in user lands when no other page was asked for (docs/product.md §2.1 Route table). */
export const DEFAULT_AFTER_LOGIN = paths.dashboard.getHref();

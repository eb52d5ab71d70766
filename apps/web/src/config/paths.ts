/** A route without parameters: its link is its path. */
const fixed = <Path extends string>(path: Path) => ({ path, getHref: () => path });

/** A route a mailed link opens with `?token=`; without a token the link is the bare path. */
const withOptionalToken = <Path extends string>(path: Path) => ({
  path,
  getHref: (token?: string) => (token ? `${path}?token=${encodeURIComponent(token)}` : path),
});

/** Every route of the app (docs/product.md §2.1 Route table) and how to link to it. Routes and links read this one table. */
export const paths = {
  home: fixed('/'),

  login: fixed('/login'),
  register: fixed('/register'),
  forgotPassword: fixed('/forgot-password'),
  resetPassword: withOptionalToken('/reset-password'),

  /** The page an optional mail's unsubscribe link opens (public, no sign-in). */
  unsubscribe: withOptionalToken('/unsubscribe'),

  dashboard: fixed('/dashboard'),
  projects: fixed('/projects'),
  project: { path: '/projects/:id', getHref: (id: string) => `/projects/${encodeURIComponent(id)}` },
  wallet: fixed('/wallet'),
  paymentSuccess: fixed('/wallet/payment/success'),
  paymentTimeout: fixed('/wallet/payment/timeout'),
  /** The link mailed for a first withdrawal to an address; public (the token is the credential). */
  withdrawalConfirm: {
    path: '/wallet/withdrawals/confirm',
    getHref: (token: string) => `/wallet/withdrawals/confirm?token=${encodeURIComponent(token)}`,
  },
  profile: fixed('/profile'),
  /** Profile → Security: two-factor sign-in and sessions (where an admin without 2FA is sent). */
  profileSecurity: { path: '/profile', getHref: () => '/profile#security' },
  /** Profile → Notifications (which mails are sent) and Profile → Privacy (data export, closing). */
  profileNotifications: { path: '/profile', getHref: () => '/profile#notifications' },
  profilePrivacy: { path: '/profile', getHref: () => '/profile#privacy' },
  kyc: fixed('/kyc'),

  admin: fixed('/admin'),
  adminDashboard: fixed('/admin/dashboard'),
  adminUsers: fixed('/admin/users'),
  adminUser: { path: '/admin/users/:userId', getHref: (userId: string) => `/admin/users/${encodeURIComponent(userId)}` },
  adminTransactions: fixed('/admin/transactions'),
  adminAudit: fixed('/admin/audit'),
  adminMail: fixed('/admin/mail'),
  adminProjects: fixed('/admin/projects'),
  adminProjectAdd: fixed('/admin/projects/add'),
  adminProjectEdit: {
    path: '/admin/projects/edit',
    getHref: (id: string) => `/admin/projects/edit?id=${encodeURIComponent(id)}`,
  },
} as const;

/** Where a signed-in user lands when no other page was asked for (docs/product.md §2.1 Route table). */
export const DEFAULT_AFTER_LOGIN = paths.dashboard.getHref();

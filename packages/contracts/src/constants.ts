/** Limits shared by the browser and the server; one number for each rule. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MIN_LENGTH = 2;
export const NAME_MAX_LENGTH = 50;
export const EMAIL_MAX_LENGTH = 254;
export const PHONE_MAX_LENGTH = 30;
export const OTP_LENGTH = 6;
export const OTP_TTL_SECONDS = 10 * 60;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_RESEND_COOLDOWN_SECONDS = 60;
export const RESET_TOKEN_TTL_SECONDS = 30 * 60;
export const PASSWORD_RESET_REDIRECT_MS = 2000;
export const PAYMENT_REDIRECT_MS = 3000;
export const SMOOTH_SCROLL_OFFSET_PX = 80;

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const KYC_STATUSES = ['not_started', 'pending', 'approved', 'rejected'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

/** Storage keys the spec names (section 3 and 4). */
export const STORAGE_KEYS = { token: 'token', user: 'user', theme: 'theme' } as const;

/** The landing page's income table (docs/product.md §11.2 Landing-page income table): marketing copy, printed as given. */
export const LANDING_PLANS = [
  { name: 'STARTIUM', price: 700, monthly: 31.25, yearly: 375, threeYears: 1125, note: 'Entry level membership', popular: false },
  { name: 'ULTIMIUM', price: 1200, monthly: 75, yearly: 900, threeYears: 2700, note: 'Smart choice for active investors', popular: false },
  { name: 'GOLD', price: 2500, monthly: 112.5, yearly: 1350, threeYears: 4050, note: 'Premium investment experience', popular: true },
  { name: 'PLATINUM', price: 5000, monthly: 250, yearly: 3000, threeYears: 9000, note: 'Ultimate investment experience', popular: false },
] as const;

/** The investment projection's periods (GET /api/dashboard/performance). */
export const PROJECTION_PERIODS = ['1W', '1M', '3M', '1Y', '3Y'] as const;
export type ProjectionPeriod = (typeof PROJECTION_PERIODS)[number];

/**
 * The privacy rules' numbers (issue 34; the schemas are in privacy.ts). Here, in a value module, because the Privacy
 * Policy on the landing page quotes them: from privacy.ts they brought zod to the landing page (over its budget).
 */
/** One export a day per member; a ready export can be downloaded for this many days, then it is deleted. */
export const DATA_EXPORT_INTERVAL_HOURS = 24;
export const DATA_EXPORT_TTL_DAYS = 7;
/** How long the KYC record and documents of a closed account are kept (anti-money-laundering), unless configured. */
export const KYC_RETENTION_DAYS_DEFAULT = 1825;
/** The word the member types to confirm closing. */
export const CLOSE_CONFIRMATION = 'CLOSE';

export * from './schema/users';
export * from './schema/auth';
export * from './schema/mail';
export * from './schema/kyc';
export * from './schema/ledger';
export * from './schema/transactions';
export * from './schema/memberships';

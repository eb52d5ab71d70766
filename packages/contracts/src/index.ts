export * from './constants';
export * from './messages';
export * from './fields';
export * from './auth';
export * from './users';
export * from './kyc';
export * from './money';

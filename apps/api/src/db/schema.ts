export * from './schema/users';
export * from './schema/auth';
export * from './schema/mail';

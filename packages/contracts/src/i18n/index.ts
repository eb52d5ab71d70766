export * from './languages';
export * from './catalogue';
export * from './i18n';
export { en, type Catalogue } from './en';

import { en } from './en';
import { es } from './es';
import { fr } from './fr';

/** Every language's catalogue, for the server (the web app loads only the visitor's: apps/web/src/lib/i18n.ts). */
export const resources = { en, es, fr };

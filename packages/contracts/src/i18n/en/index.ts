import { englishMessages } from '../catalogue';
import common from './common.json';
import layout from './layout.json';
import landing from './landing.json';
import auth from './auth.json';
import legal from './legal.json';
import dashboard from './dashboard.json';
import wallet from './wallet.json';
import kyc from './kyc.json';
import projects from './projects.json';
import profile from './profile.json';
import admin from './admin.json';
import mail from './mail.json';

/** The English catalogue: the spec's texts, and the fallback of every other language. */
export const en = { messages: englishMessages, common, layout, landing, auth, legal, dashboard, wallet, kyc, projects, profile, admin, mail };
export type Catalogue = typeof en;

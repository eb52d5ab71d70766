/** What other modules may use of users. */
export { publicUser, publicUsers } from './public-user';
export { updateProfile } from './users.service';

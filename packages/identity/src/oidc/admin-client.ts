import { ADMIN_CLIENT_ID } from '@catalog/contracts';

/**
 * The registered client of the admin console and the operator CLI (its id is the contract's: ID tokens
 * issued to it have this audience, which is how the catalog API recognises an administrator's token).
 */
export { ADMIN_CLIENT_ID };

/**
 * The CLI's redirect URI. The CLI never listens there: it drives the flow itself and reads the code
 * from the redirect's Location header. A browser console adds its own https:// URIs
 * (ADMIN_CONSOLE_REDIRECT_URIS).
 */
export const ADMIN_CLI_REDIRECT_URI = 'http://127.0.0.1/callback';

export const ADMIN_SCOPE = 'openid';

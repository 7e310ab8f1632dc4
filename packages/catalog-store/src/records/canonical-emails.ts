import { canonicalEmail } from '../model/admin-email.ts';

export interface StoredEmail {
  readonly id: string;
  readonly email: string;
}

export interface EmailRewrite {
  readonly id: string;
  readonly from: string;
  readonly to: string;
}

/**
 * The admin_users rows written before emails were stored in their canonical form, and that form.
 * Each engine rewrites them once at open (a handful of rows, so no migration flag): a lookup
 * compares the canonical form exactly, so a row left as it was could not be signed in to. A row
 * whose canonical form another account already holds (two spellings the old comparison told
 * apart, such as full-width and ASCII letters) is left as it is; `pnpm admin users list` shows both.
 */
export const emailRewrites = (rows: readonly StoredEmail[]): EmailRewrite[] =>
  rows.flatMap(({ id, email }) => {
    const to = canonicalEmail(email);
    return to === email ? [] : [{ id, from: email, to }];
  });

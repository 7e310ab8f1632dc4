/**
 * The one form of an administrator's email that is stored, looked up and counted by the token
 * server's lock-outs: Unicode NFKC, then the default (locale-free) lower case, then NFKC again
 * (lowering can leave a sequence NFKC writes otherwise), trimmed. Lookups compare this form exactly,
 * on every engine: when the key of the lock-out and the key of the lookup are one string, no
 * spelling can find an account while escaping its lock-out, and no engine's own idea of case
 * (PostgreSQL's lower() follows the database's locale, SQLite's NOCASE only ASCII) decides.
 *
 * So `ＩＲＩＳ＠example.com` (full-width), `\u212Aim` (Kelvin sign) and `ſam` (long s) are
 * `iris@example.com`, `kim`, `sam`. Two spellings stay distinct, as IDNA2008 keeps them in domains:
 * `ß` is not `ss` (`STRASSE` is `strasse`, `STRAẞE` is `straße`), and `İ` (U+0130) lowers to `i`
 * followed by U+0307, not to `i`: `İris@…` is another email than `iris@…`, with its own account
 * (none, usually) and its own failure count.
 */
export function canonicalEmail(email: string): string {
  return email.normalize('NFKC').toLowerCase().normalize('NFKC').trim();
}

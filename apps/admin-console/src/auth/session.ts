// The signed-in session: the ID token lives in this module's memory only (never in Web Storage,
// cookies or logs). React reads it through subscribe/getSnapshot (useSyncExternalStore).
import { type IdTokenClaims, isAdmin, isExpired, msUntilExpiry } from './id-token.ts';

export type SessionState =
  | {
      readonly kind: 'signed-out';
      readonly reason: 'initial' | 'signed-out' | 'ended';
      readonly error?: string;
    }
  | { readonly kind: 'signed-in'; readonly claims: IdTokenClaims }
  | { readonly kind: 'not-admin'; readonly email: string };

const MAX_TIMER_MS = 2_147_483_647;

let state: SessionState = { kind: 'signed-out', reason: 'initial' };
let idToken: string | null = null;
let expiryTimer: ReturnType<typeof setTimeout> | null = null;
/** After a sign-out (or to switch account) the next sign-in asks for the password again. */
let promptLoginNext = false;
const listeners = new Set<() => void>();

function setState(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

function clearTimer(): void {
  if (expiryTimer !== null) clearTimeout(expiryTimer);
  expiryTimer = null;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getSessionState(): SessionState {
  return state;
}

export function shouldPromptLogin(): boolean {
  return promptLoginNext;
}

function scheduleExpiry(claims: IdTokenClaims): void {
  clearTimer();
  const delay = Math.min(Math.max(msUntilExpiry(claims, Date.now()), 0), MAX_TIMER_MS);
  expiryTimer = setTimeout(() => {
    if (!checkExpiry()) scheduleExpiry(claims);
  }, delay);
}

/** Holds a fresh ID token (from the callback). A non-administrator gets the "Admin role required" page. */
export function startSession(token: string, claims: IdTokenClaims): void {
  if (!isAdmin(claims)) {
    idToken = null;
    clearTimer();
    setState({ kind: 'not-admin', email: claims.email });
    return;
  }
  idToken = token;
  promptLoginNext = false;
  setState({ kind: 'signed-in', claims });
  scheduleExpiry(claims);
}

/** Drops the token: "Your session has ended". */
export function endSession(): void {
  idToken = null;
  clearTimer();
  setState({ kind: 'signed-out', reason: 'ended' });
}

/** The API said this account is not (or no longer) an administrator. */
export function markNotAdmin(): void {
  const email =
    state.kind === 'signed-in' ? state.claims.email : state.kind === 'not-admin' ? state.email : '';
  idToken = null;
  clearTimer();
  promptLoginNext = true;
  setState({ kind: 'not-admin', email });
}

/** Drops the token and shows "You have signed out"; returns the token it held (the logout's hint). */
export function signOut(): string | null {
  const held = idToken;
  idToken = null;
  clearTimer();
  promptLoginNext = true;
  setState({ kind: 'signed-out', reason: 'signed-out' });
  return held;
}

export function signInFailed(message: string): void {
  idToken = null;
  clearTimer();
  setState({ kind: 'signed-out', reason: 'initial', error: message });
}

/** Ends the session when its token has expired; true when it did. */
export function checkExpiry(): boolean {
  if (state.kind === 'signed-in' && isExpired(state.claims, Date.now())) {
    endSession();
    return true;
  }
  return false;
}

/** The ID token for an API call, or null (and the session ended) once it has expired. */
export function currentIdToken(): string | null {
  if (checkExpiry()) return null;
  return state.kind === 'signed-in' ? idToken : null;
}

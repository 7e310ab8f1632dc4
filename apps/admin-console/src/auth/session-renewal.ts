// Keeps the session alive while the token server's lasts: each ID token the session holds is renewed
// silently before it expires. A renewal that fails leaves the token as it is, and its expiry ends the
// session as before ("Your session has ended").
import type { ConsoleConfig } from '../config.ts';
import { msUntilExpiry } from './id-token.ts';
import { renewalDelayMs } from './renewal-schedule.ts';
import { getSessionState, type SessionState, startSession, subscribeSession } from './session.ts';
import { silentSignIn } from './silent-sign-in.ts';

type SignedIn = Extract<SessionState, { kind: 'signed-in' }>;

/** Starts renewing; returns the stop. */
export function keepSessionAlive(config: ConsoleConfig): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let renewing: SignedIn | null = null;
  let scheduledFor: SignedIn | null = null;

  const renew = async (session: SignedIn) => {
    renewing = session;
    const result = await silentSignIn(config);
    renewing = null;
    // Only the session that asked may be replaced: not one signed out (here or in another tab) meanwhile.
    if (result.kind === 'signed-in' && getSessionState() === session)
      startSession(result.idToken, result.claims);
  };

  const schedule = () => {
    const session = getSessionState();
    if (session === scheduledFor) return;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    scheduledFor = null;
    if (session.kind !== 'signed-in') return;
    const { claims } = session;
    const delay = renewalDelayMs({
      lifetimeMs: claims.iat === null ? null : (claims.exp - claims.iat) * 1000,
      remainingMs: msUntilExpiry(claims, Date.now()),
    });
    scheduledFor = session;
    timer = setTimeout(() => {
      if (renewing === null) void renew(session);
    }, delay);
  };

  schedule();
  const unsubscribe = subscribeSession(schedule);
  return () => {
    unsubscribe();
    if (timer !== null) clearTimeout(timer);
  };
}

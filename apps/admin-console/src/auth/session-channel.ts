// Tells the console's other tabs (same origin, same browser) that the administrator signed out, so
// that none of them keeps an ID token the administrator meant to give up.
const CHANNEL = 'catalog-admin-console:session';
const SIGNED_OUT = 'signed-out';

/** Announces a sign-out to every other tab of the console. */
export function announceSignOut(): void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(SIGNED_OUT);
  channel.close();
}

/** Calls `onSignedOut` when another tab signs out; returns the unsubscribe. */
export function onSignOutElsewhere(onSignedOut: () => void): () => void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent) => {
    if (event.data === SIGNED_OUT) onSignedOut();
  };
  return () => channel.close();
}

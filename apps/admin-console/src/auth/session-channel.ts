// Tells the console's other tabs (same origin, same browser) that the administrator signed out, so
// that none of them keeps an ID token the administrator meant to give up. One channel per tab: a
// BroadcastChannel never hears its own messages, so the tab signing out is not told again.
const CHANNEL = 'catalog-admin-console:session';
const SIGNED_OUT = 'signed-out';

let channel: BroadcastChannel | null = null;
const tabChannel = (): BroadcastChannel => {
  channel ??= new BroadcastChannel(CHANNEL);
  return channel;
};

/** Announces a sign-out to every other tab of the console. */
export function announceSignOut(): void {
  tabChannel().postMessage(SIGNED_OUT);
}

/** Calls `onSignedOut` when another tab signs out; returns the unsubscribe. */
export function onSignOutElsewhere(onSignedOut: () => void): () => void {
  const listener = (event: MessageEvent) => {
    if (event.data === SIGNED_OUT) onSignedOut();
  };
  tabChannel().addEventListener('message', listener);
  return () => tabChannel().removeEventListener('message', listener);
}

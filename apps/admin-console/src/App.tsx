import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { createApiClient } from './api/client.ts';
import { createCatalogAdminApi } from './api/endpoints.ts';
import { AppContext, type AppContextValue } from './app-context.ts';
import {
  checkExpiry,
  getSessionState,
  shouldPromptLogin,
  signInFailed,
  signOut,
  startSession,
  subscribeSession,
} from './auth/session.ts';
import { announceSignOut, onSignOutElsewhere } from './auth/session-channel.ts';
import { keepSessionAlive } from './auth/session-renewal.ts';
import { beginSignIn, completeSignIn } from './auth/sign-in.ts';
import { buildEndSessionUrl, postLogoutRedirectUri } from './auth/sign-out.ts';
import { silentSignIn } from './auth/silent-sign-in.ts';
import { Header } from './components/Header.tsx';
import {
  AdminRequiredPage,
  MessagePage,
  SessionEndedPage,
  SignInPage,
} from './components/SignedOutPages.tsx';
import type { ConsoleConfig } from './config.ts';
import { mayLeave } from './leave-guard.ts';
import { ChannelsPage } from './pages/ChannelsPage.tsx';
import { ClientDetailPage } from './pages/ClientDetailPage.tsx';
import { ClientsPage } from './pages/ClientsPage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { PreviewPage } from './pages/PreviewPage.tsx';
import { WebhookDetailPage } from './pages/webhooks/WebhookDetailPage.tsx';
import { WebhooksPage } from './pages/webhooks/WebhooksPage.tsx';
import { currentRelativeLocation, replaceLocation, useRoute } from './routing.ts';

export function App({ config }: { readonly config: ConsoleConfig }) {
  const session = useSyncExternalStore(subscribeSession, getSessionState);
  const route = useRoute();
  const context = useMemo<AppContextValue>(
    () => ({ config, api: createCatalogAdminApi(createApiClient(config.apiBaseUrl)) }),
    [config],
  );
  // A page load other than the sign-in's callback first asks the token server, without showing
  // anything, whether its session still lasts: a reload or a new tab needs no click then.
  const [completing, setCompleting] = useState(route !== 'signed-out');
  const pageLoadHandled = useRef(false);

  useEffect(() => {
    if (pageLoadHandled.current) return;
    pageLoadHandled.current = true;
    if (route === 'signed-out') {
      // The token server's logout sent the browser back here: its session has ended.
      signOut();
      replaceLocation('clients');
      return;
    }
    if (route !== 'callback') {
      silentSignIn(config)
        .then((result) => {
          if (result.kind === 'signed-in') startSession(result.idToken, result.claims);
        })
        .finally(() => setCompleting(false));
      return;
    }
    completeSignIn(config, new URL(location.href))
      .then(({ idToken, claims, returnTo }) => {
        startSession(idToken, claims);
        replaceLocation(returnTo);
      })
      .catch((error: unknown) => {
        signInFailed(error instanceof Error ? error.message : 'The sign-in could not be completed.');
        replaceLocation('clients');
      })
      .finally(() => setCompleting(false));
  }, [route, config]);

  useEffect(() => keepSessionAlive(config), [config]);
  useEffect(() => onSignOutElsewhere(() => signOut()), []);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') checkExpiry();
    };
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('focus', onVisible);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('focus', onVisible);
    };
  }, []);

  const signIn = useCallback(
    (promptLogin: boolean) => {
      void beginSignIn(config, { returnTo: currentRelativeLocation(), promptLogin });
    },
    [config],
  );

  // Shown until the browser has left for the token server's logout, which sends it back to `signed-out`.
  const [signingOut, setSigningOut] = useState(false);
  const signOutEverywhere = useCallback(() => {
    if (!mayLeave()) return;
    setSigningOut(true);
    const idTokenHint = signOut();
    announceSignOut();
    location.assign(
      buildEndSessionUrl(config, { idTokenHint, postLogoutRedirectUri: postLogoutRedirectUri() }),
    );
  }, [config]);

  if (signingOut) return <MessagePage title="Signing out" message="Signing you out…" />;
  if (completing || route === 'callback')
    return <MessagePage title="Signing you in" message="Signing you in…" />;

  if (session.kind === 'signed-out') {
    if (session.reason === 'ended') return <SessionEndedPage onSignIn={() => signIn(shouldPromptLogin())} />;
    return (
      <SignInPage
        signedOut={session.reason === 'signed-out'}
        error={session.error}
        onSignIn={() => signIn(shouldPromptLogin())}
      />
    );
  }
  if (session.kind === 'not-admin')
    return <AdminRequiredPage email={session.email} onSwitch={() => signIn(true)} />;

  return (
    <AppContext.Provider value={context}>
      <Header route={route} email={session.claims.email} onSignOut={signOutEverywhere} />
      <main id="main">
        {route === 'clients' && <ClientsPage />}
        {route === 'client' && <ClientDetailPage />}
        {route === 'channels' && <ChannelsPage />}
        {route === 'preview' && <PreviewPage />}
        {route === 'webhooks' && <WebhooksPage />}
        {route === 'webhook' && <WebhookDetailPage />}
        {route === 'not-found' && <NotFoundPage />}
      </main>
    </AppContext.Provider>
  );
}

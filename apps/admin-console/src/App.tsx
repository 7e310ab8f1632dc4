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
import { beginSignIn, completeSignIn } from './auth/sign-in.ts';
import { Header } from './components/Header.tsx';
import {
  AdminRequiredPage,
  MessagePage,
  SessionEndedPage,
  SignInPage,
} from './components/SignedOutPages.tsx';
import type { ConsoleConfig } from './config.ts';
import { ChannelsPage } from './pages/ChannelsPage.tsx';
import { ClientDetailPage } from './pages/ClientDetailPage.tsx';
import { ClientsPage } from './pages/ClientsPage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { PreviewPage } from './pages/PreviewPage.tsx';
import { currentRelativeLocation, replaceLocation, useRoute } from './routing.ts';

export function App({ config }: { readonly config: ConsoleConfig }) {
  const session = useSyncExternalStore(subscribeSession, getSessionState);
  const route = useRoute();
  const context = useMemo<AppContextValue>(
    () => ({ config, api: createCatalogAdminApi(createApiClient(config.apiBaseUrl)) }),
    [config],
  );
  const [completing, setCompleting] = useState(route === 'callback');
  const callbackHandled = useRef(false);

  useEffect(() => {
    if (route !== 'callback' || callbackHandled.current) return;
    callbackHandled.current = true;
    setCompleting(true);
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
      <Header route={route} email={session.claims.email} onSignOut={signOut} />
      <main id="main">
        {route === 'clients' && <ClientsPage />}
        {route === 'client' && <ClientDetailPage />}
        {route === 'channels' && <ChannelsPage />}
        {route === 'preview' && <PreviewPage />}
        {route === 'not-found' && <NotFoundPage />}
      </main>
    </AppContext.Provider>
  );
}

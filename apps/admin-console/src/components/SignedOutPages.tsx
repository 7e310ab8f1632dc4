import { useEffect, useRef } from 'react';
import { APP_NAME, Header } from './Header.tsx';

function usePageTitle(title: string) {
  useEffect(() => {
    document.title = title === APP_NAME ? APP_NAME : `${title} — ${APP_NAME}`;
  }, [title]);
}

function SimplePage({
  title,
  children,
  action,
  onAction,
  error,
}: {
  readonly title: string;
  readonly children: React.ReactNode;
  readonly action: string;
  readonly onAction: () => void;
  readonly error?: string | undefined;
}) {
  usePageTitle(title);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <>
      <Header />
      <main id="main" className="narrow-page">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {children}
        {error !== undefined && (
          <div className="alert alert-error" role="alert">
            <p>{error}</p>
          </div>
        )}
        <button type="button" className="button-primary" onClick={onAction}>
          {action}
        </button>
      </main>
    </>
  );
}

export function SignInPage({
  signedOut,
  error,
  onSignIn,
}: {
  readonly signedOut: boolean;
  readonly error?: string | undefined;
  readonly onSignIn: () => void;
}) {
  return (
    <SimplePage title={APP_NAME} action="Sign in" onAction={onSignIn} error={error}>
      {signedOut && (
        <p className="notice" role="status">
          You have signed out.
        </p>
      )}
      <p>Sign in with your administrator account to manage integrators’ clients and web channels.</p>
    </SimplePage>
  );
}

export function SessionEndedPage({ onSignIn }: { readonly onSignIn: () => void }) {
  return (
    <SimplePage title="Your session has ended" action="Sign in again" onAction={onSignIn}>
      <p>
        Your sign-in has expired or is no longer valid, so you were signed out. Nothing was lost on the
        server.
      </p>
      <p>Sign in again to continue where you were.</p>
    </SimplePage>
  );
}

export function AdminRequiredPage({
  email,
  onSwitch,
}: {
  readonly email: string;
  readonly onSwitch: () => void;
}) {
  return (
    <SimplePage title="Admin role required" action="Sign in with another account" onAction={onSwitch}>
      <p>
        The account <strong>{email === '' ? 'you signed in with' : email}</strong> is not an administrator of
        the catalog, so it cannot use this console.
      </p>
      <p>Ask an administrator to add it to the admin group, or sign in with an administrator account.</p>
    </SimplePage>
  );
}

export function MessagePage({ title, message }: { readonly title: string; readonly message: string }) {
  usePageTitle(title);
  return (
    <>
      <Header />
      <main id="main" className="narrow-page">
        <h1>{title}</h1>
        <p role="status">{message}</p>
      </main>
    </>
  );
}

export { usePageTitle };

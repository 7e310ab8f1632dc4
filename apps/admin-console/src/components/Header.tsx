import type { MouseEvent } from 'react';
import type { Route } from '../routing.ts';
import { NavLink } from './NavLink.tsx';

export const APP_NAME = 'Catalog admin console';

export interface HeaderProps {
  readonly route?: Route;
  readonly email?: string;
  readonly onSignOut?: () => void;
}

const LINKS = [
  { to: 'clients', label: 'Clients' },
  { to: 'channels', label: 'Web channels' },
  { to: 'webhooks', label: 'Webhooks' },
  { to: 'preview', label: 'See what an integrator sees' },
] as const;

/** Focus moves into the main content itself (a bare #main would resolve against the <base href>). */
function skipToMain(event: MouseEvent<HTMLAnchorElement>): void {
  event.preventDefault();
  const main = document.getElementById('main');
  if (main === null) return;
  main.setAttribute('tabindex', '-1');
  main.focus();
}

export function Header({ route, email, onSignOut }: HeaderProps) {
  return (
    <header className="app-header">
      {/* First on the page, shown when focused: keyboard users skip the navigation in one key press. */}
      <a className="skip-link" href={`${location.pathname}${location.search}#main`} onClick={skipToMain}>
        Skip to main content
      </a>
      <p className="app-name">{APP_NAME}</p>
      {email !== undefined && (
        <>
          <nav aria-label="Main">
            <ul>
              {LINKS.map((link) => (
                <li key={link.to}>
                  <NavLink
                    to={link.to}
                    current={
                      route === link.to ||
                      (route === 'client' && link.to === 'clients') ||
                      (route === 'webhook' && link.to === 'webhooks')
                    }
                  >
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="account">
            <span className="account-email">
              Signed in as <strong>{email}</strong>
            </span>
            <button type="button" className="button-secondary" onClick={onSignOut}>
              Sign out
            </button>
          </div>
        </>
      )}
    </header>
  );
}

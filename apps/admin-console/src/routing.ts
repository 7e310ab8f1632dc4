// A tiny router: paths relative to the document's <base href> (`${BASE_PATH}/console/`), changed with
// history.pushState. No hash routes: the OAuth redirect URI is `<base>callback`.
import { useSyncExternalStore } from 'react';
import { focusPageHeading } from './focus-on-navigation.ts';
import { mayLeave } from './leave-guard.ts';

export const ROUTES = ['clients', 'channels', 'preview', 'callback'] as const;
export type Route = (typeof ROUTES)[number] | 'not-found';

const CHANGE_EVENT = 'console:navigate';

/** The route of `pathname` under the base's pathname: '' and 'clients' are the clients page. */
export function routeFromPath(pathname: string, basePathname: string): Route {
  const base = basePathname.endsWith('/')
    ? basePathname
    : basePathname.slice(0, basePathname.lastIndexOf('/') + 1);
  if (`${pathname}/` === base) return 'clients';
  if (!pathname.startsWith(base)) return 'not-found';
  const rest = pathname.slice(base.length).replace(/\/+$/, '');
  if (rest === '') return 'clients';
  return (ROUTES as readonly string[]).includes(rest) ? (rest as Route) : 'not-found';
}

export function currentRoute(): Route {
  return routeFromPath(location.pathname, new URL(document.baseURI).pathname);
}

export function routeHref(route: string): string {
  return new URL(route, document.baseURI).href;
}

/** Where the user is, relative to the base (path and query), to come back to after signing in. */
export function currentRelativeLocation(): string {
  const basePath = new URL(document.baseURI).pathname;
  const path = location.pathname.startsWith(basePath) ? location.pathname.slice(basePath.length) : '';
  const route = currentRoute();
  if (route === 'callback' || route === 'not-found') return 'clients';
  return `${path === '' ? 'clients' : path}${location.search}`;
}

function notify(): void {
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

export function navigate(route: string): void {
  if (!mayLeave()) return;
  history.pushState(null, '', routeHref(route));
  notify();
  focusPageHeading();
}

export function replaceLocation(relative: string): void {
  history.replaceState(null, '', routeHref(relative));
  notify();
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  window.addEventListener(CHANGE_EVENT, listener);
  return () => {
    window.removeEventListener('popstate', listener);
    window.removeEventListener(CHANGE_EVENT, listener);
  };
}

export function useRoute(): Route {
  return useSyncExternalStore(subscribe, currentRoute);
}

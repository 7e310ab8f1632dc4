// A tiny router: paths relative to the document's <base href> (`${BASE_PATH}/console/`), changed with
// history.pushState. No hash routes: the OAuth redirect URI is `<base>callback`.
import { useSyncExternalStore } from 'react';
import { focusPageHeading } from './focus-on-navigation.ts';
import { mayLeave, rememberLocation } from './leave-guard.ts';

export const ROUTES = ['clients', 'channels', 'preview', 'webhooks', 'callback', 'signed-out'] as const;
export type Route = (typeof ROUTES)[number] | 'client' | 'webhook' | 'not-found';

/** A client's own page: `clients/<clientId>`. */
const CLIENT_PATH = /^clients\/([a-zA-Z0-9]{26})$/;
/** A webhook subscription's own page: `webhooks/<subscriptionId>`. */
const WEBHOOK_PATH = /^webhooks\/([a-zA-Z0-9]{26})$/;

const CHANGE_EVENT = 'console:navigate';

/** The path under the base's pathname without trailing slashes ('' for the base), or null outside it. */
function pathUnderBase(pathname: string, basePathname: string): string | null {
  const base = basePathname.endsWith('/')
    ? basePathname
    : basePathname.slice(0, basePathname.lastIndexOf('/') + 1);
  if (`${pathname}/` === base) return '';
  if (!pathname.startsWith(base)) return null;
  return pathname.slice(base.length).replace(/\/+$/, '');
}

/** The route of `pathname` under the base's pathname: '' and 'clients' are the clients page. */
export function routeFromPath(pathname: string, basePathname: string): Route {
  const rest = pathUnderBase(pathname, basePathname);
  if (rest === null) return 'not-found';
  if (rest === '') return 'clients';
  if (CLIENT_PATH.test(rest)) return 'client';
  if (WEBHOOK_PATH.test(rest)) return 'webhook';
  return (ROUTES as readonly string[]).includes(rest) ? (rest as Route) : 'not-found';
}

/** The client ID of a client's page, null on any other page. */
export function clientIdFromPath(pathname: string, basePathname: string): string | null {
  return CLIENT_PATH.exec(pathUnderBase(pathname, basePathname) ?? '')?.[1] ?? null;
}

/** The route of a client's own page, for navigate() and routeHref(). */
export const clientRoute = (clientId: string) => `clients/${clientId}`;

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
  if (route === 'callback' || route === 'signed-out' || route === 'not-found') return 'clients';
  return `${path === '' ? 'clients' : path}${location.search}`;
}

function notify(): void {
  rememberLocation();
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

/**
 * Changes the current page's query only. `push` adds a step that Back returns to (another page of the
 * list); `replace` keeps one entry while a filter is typed into.
 */
export function setLocationSearch(search: string, mode: 'push' | 'replace'): void {
  const url = new URL(location.href);
  url.search = search;
  if (url.href === location.href) return;
  if (mode === 'push') history.pushState(null, '', url.href);
  else history.replaceState(null, '', url.href);
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

export function useLocationSearch(): string {
  return useSyncExternalStore(subscribe, () => location.search);
}

export function useClientIdInPath(): string | null {
  return useSyncExternalStore(subscribe, () =>
    clientIdFromPath(location.pathname, new URL(document.baseURI).pathname),
  );
}

export function useWebhookIdInPath(): string | null {
  return useSyncExternalStore(
    subscribe,
    () =>
      WEBHOOK_PATH.exec(pathUnderBase(location.pathname, new URL(document.baseURI).pathname) ?? '')?.[1] ??
      null,
  );
}

import type { MouseEvent, ReactNode } from 'react';
import { navigate, routeHref } from '../routing.ts';

/** A real link (works with a new tab, copy link…) whose plain click is handled by pushState. */
export function NavLink({
  to,
  current,
  children,
}: {
  readonly to: string;
  readonly current?: boolean;
  readonly children: ReactNode;
}) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={routeHref(to)} onClick={onClick} {...(current ? { 'aria-current': 'page' as const } : {})}>
      {children}
    </a>
  );
}

import { NavLink } from '../components/NavLink.tsx';
import { usePageTitle } from '../components/SignedOutPages.tsx';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <>
      <h1>Page not found</h1>
      <p>
        This console has no such page. Go to the <NavLink to="clients">clients</NavLink>.
      </p>
    </>
  );
}

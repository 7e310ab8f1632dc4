import { type Page, showingText } from '../../domain/paging.ts';

/** Where the page is in the list, and Previous / Next; the words are a status, read when they change. */
export function ClientPager({
  page,
  onPage,
}: {
  readonly page: Page<unknown>;
  readonly onPage: (page: number) => void;
}) {
  return (
    <nav className="pager" aria-label="Pages of clients">
      <p className="count" role="status">
        {showingText(page, 'client', 'clients')}
        {page.pageCount > 1 && ` (page ${page.page} of ${page.pageCount})`}.
      </p>
      {page.pageCount > 1 && (
        <div className="button-row">
          <PageButton label="Previous page" to={page.page - 1} page={page} onPage={onPage} />
          <PageButton label="Next page" to={page.page + 1} page={page} onPage={onPage} />
        </div>
      )}
    </nav>
  );
}

/** aria-disabled, not disabled, at either end: a disabled button would drop the focus to the page. */
function PageButton({
  label,
  to,
  page,
  onPage,
}: {
  readonly label: string;
  readonly to: number;
  readonly page: Page<unknown>;
  readonly onPage: (page: number) => void;
}) {
  const possible = to >= 1 && to <= page.pageCount;
  return (
    <button type="button" aria-disabled={!possible} onClick={() => possible && onPage(to)}>
      {label}
    </button>
  );
}

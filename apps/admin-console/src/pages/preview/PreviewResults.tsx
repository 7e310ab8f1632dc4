import { useEffect, useRef } from 'react';
import type { SearchPreview } from '../../api/types.ts';
import { TableRegion } from '../../components/TableRegion.tsx';
import { cellText, countLine, previewColumns } from '../../domain/preview.ts';

export function PreviewResults({
  preview,
  fields,
  page,
  busy,
  onNextPage,
  onPreviousPage,
}: {
  readonly preview: SearchPreview;
  /** The search's `fields`: the table shows those columns. */
  readonly fields: string | undefined;
  readonly page: number;
  /** Another page is on its way: this one stays in place until it comes. */
  readonly busy: boolean;
  readonly onNextPage: () => void;
  readonly onPreviousPage: () => void;
}) {
  const { subject, access, search } = preview;
  const columns = search === null ? [] : previewColumns(fields, search.data);
  // Each answer (a run, another page) takes the focus to its heading: a screen reader reads what came,
  // and the focus does not stay on a button of the page that was replaced.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [preview]);
  return (
    <section className="panel" aria-labelledby="preview-results-heading" aria-busy={busy}>
      <h2 id="preview-results-heading" ref={heading} tabIndex={-1}>
        What the integrator receives
      </h2>
      <div className={access.allowed ? 'verdict verdict-allowed' : 'verdict verdict-refused'} role="status">
        <p className="verdict-title">
          {access.allowed ? `Access allowed (${access.status})` : `Access refused (${access.status})`}
        </p>
        <p>{access.reason}</p>
      </div>
      <dl className="details-list">
        <dt>Client</dt>
        <dd>{subject.clientName ?? 'Hypothetical client'}</dd>
        {subject.clientId !== null && (
          <>
            <dt>Client ID</dt>
            <dd>
              <code>{subject.clientId}</code>
            </dd>
          </>
        )}
        <dt>Status</dt>
        <dd>{subject.status}</dd>
        <dt>Scopes</dt>
        <dd>{subject.scopes.length === 0 ? 'none' : subject.scopes.join(', ')}</dd>
        <dt>Channel</dt>
        <dd>{subject.channel ?? 'Unbound'}</dd>
      </dl>
      {search !== null && (
        <>
          <p className="count">
            {countLine(search.pagination.total, search.pagination.totalIsLowerBound)}. Page {page}:{' '}
            {search.data.length} {search.data.length === 1 ? 'record' : 'records'}.
          </p>
          {search.data.length === 0 ? (
            <p className="empty">No products on this page.</p>
          ) : (
            <TableRegion label="Preview results table">
              <table className="data-table">
                <thead>
                  <tr>
                    {columns.map((column) => (
                      <th scope="col" key={column}>
                        {column}
                      </th>
                    ))}
                    <th scope="col">Record</th>
                  </tr>
                </thead>
                <tbody>
                  {search.data.map((record) => (
                    <tr key={record.id}>
                      {columns.map((column) =>
                        column === 'id' ? (
                          <th scope="row" key={column}>
                            <code>{record.id}</code>
                          </th>
                        ) : (
                          <td key={column}>{cellText(record, column)}</td>
                        ),
                      )}
                      <td>
                        <details>
                          <summary>
                            JSON<span className="visually-hidden"> of {record.id}</span>
                          </summary>
                          <pre className="json" data-testid="preview-record">
                            {JSON.stringify(record, null, 2)}
                          </pre>
                        </details>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          )}
          {(page > 1 || search.syncToken !== null) && (
            <nav className="button-row" aria-label="Preview pages">
              <button
                type="button"
                onClick={onPreviousPage}
                disabled={page === 1}
                aria-disabled={busy || undefined}
              >
                Previous page
              </button>
              <button
                type="button"
                onClick={onNextPage}
                disabled={search.syncToken === null}
                aria-disabled={busy || undefined}
              >
                Next page
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}

import type { SearchPreview } from '../../api/types.ts';
import { TableRegion } from '../../components/TableRegion.tsx';
import { cellText, countLine, presentColumns } from '../../domain/preview.ts';

export function PreviewResults({
  preview,
  page,
  onNextPage,
}: {
  readonly preview: SearchPreview;
  readonly page: number;
  readonly onNextPage: () => void;
}) {
  const { subject, access, search } = preview;
  const columns = search === null ? [] : presentColumns(search.data);
  return (
    <section className="panel" aria-labelledby="preview-results-heading">
      <h2 id="preview-results-heading">What the integrator receives</h2>
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
          {search.syncToken !== null && (
            <button type="button" onClick={onNextPage}>
              Next page
            </button>
          )}
        </>
      )}
    </section>
  );
}

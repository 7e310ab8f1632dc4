import { formatDateTime } from '../domain/date-time.ts';

/** A date and time in the reader's zone; the exact instant in ISO 8601 for machines and on hover. */
export function DateTime({ iso, none = 'never' }: { readonly iso: string | null; readonly none?: string }) {
  if (iso === null) return <>{none}</>;
  return (
    <time dateTime={iso} title={iso}>
      {formatDateTime(iso)}
    </time>
  );
}

import { ApiError, isRetryable } from '../api/client.ts';

export interface ErrorAlertProps {
  readonly error: unknown;
  /** Said before the API's message, e.g. "The client could not be created." */
  readonly title?: string;
  /** Field errors the form could not place next to a field. */
  readonly extra?: readonly string[];
  /** Sends the same request again: offered when that may succeed (no answer, 429, 5xx). */
  readonly onRetry?: () => void;
  /** What a retry may repeat, said beside the button (e.g. that a create may have happened). */
  readonly retryNote?: string;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

/** An API error as the administrator should see it: its message and the request ID for support. */
export function ErrorAlert({ error, title, extra = [], onRetry, retryNote }: ErrorAlertProps) {
  const retry = onRetry !== undefined && isRetryable(error);
  const requestId = error instanceof ApiError ? error.requestId : null;
  return (
    <div className="alert alert-error" role="alert">
      {title !== undefined && <p className="alert-title">{title}</p>}
      <p>{errorMessage(error)}</p>
      {extra.length > 0 && (
        <ul>
          {extra.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      {retry && retryNote !== undefined && <p>{retryNote}</p>}
      {retry && (
        <button type="button" className="button-secondary" onClick={onRetry}>
          Try again
        </button>
      )}
      {requestId !== null && (
        <p className="request-id">
          Request ID: <code>{requestId}</code>
        </p>
      )}
    </div>
  );
}

import { ServiceError, type ValidationIssue } from '@catalog/contracts';

/** One entry of the `errors` array of the client-management routes (spec 7.2). */
export interface ClientFieldError {
  readonly field: string;
  readonly message: string;
}

/**
 * 400 INVALID_PARAMETER (VALIDATION_ERROR for a body that is not valid JSON) with one entry per invalid
 * field. The message is the first entry's, so the observed messages of spec 7.3 appear as they are
 * ("Client name must be at least 3 characters long").
 */
export class ClientValidationError extends ServiceError {
  readonly errors: readonly ClientFieldError[];

  constructor(
    errors: readonly ClientFieldError[],
    code: 'INVALID_PARAMETER' | 'VALIDATION_ERROR' = 'INVALID_PARAMETER',
  ) {
    const [first] = errors;
    const more =
      errors.length > 1
        ? ` (and ${errors.length - 1} more invalid field${errors.length > 2 ? 's' : ''})`
        : '';
    super(400, code, `${first?.message ?? 'Invalid client'}${more}`);
    this.errors = errors;
  }
}

const LABELS: Record<string, string> = {
  clientName: 'Client name',
  description: 'Description',
  scopes: 'Scopes',
  expiresInDays: 'expiresInDays',
  channel: 'Channel',
  clientId: 'Client ID',
  body: 'Request body',
};

const SCOPE_ENTRY = /^scopes\.(\d+)$/;

function messageFor(issue: ValidationIssue, body: unknown): string {
  const scopeEntry = SCOPE_ENTRY.exec(issue.field);
  if (scopeEntry && issue.reason.startsWith('must be one of')) {
    const scopes = (body as { scopes?: unknown[] } | undefined)?.scopes;
    const value = scopes?.[Number(scopeEntry[1])];
    return `Invalid scope: ${JSON.stringify(value)}. Allowed scopes: products.read, products.write, brands.read, brands.write`;
  }
  if (issue.reason === 'is not allowed') return `Field "${issue.field}" is not allowed`;
  return `${LABELS[issue.field] ?? issue.field} ${issue.reason}`;
}

/** Contract validation issues as the client-management error, one entry per field. */
export function clientValidationError(
  issues: readonly ValidationIssue[],
  body: unknown,
): ClientValidationError {
  const seen = new Set<string>();
  const errors: ClientFieldError[] = [];
  for (const issue of issues) {
    const field = SCOPE_ENTRY.test(issue.field) ? 'scopes' : issue.field;
    if (seen.has(field)) continue;
    seen.add(field);
    errors.push({ field, message: messageFor(issue, body) });
  }
  // The only VALIDATION_ERROR issue on these routes is a body that is not JSON at all.
  return new ClientValidationError(
    errors,
    issues[0]?.code === 'VALIDATION_ERROR' ? 'VALIDATION_ERROR' : 'INVALID_PARAMETER',
  );
}

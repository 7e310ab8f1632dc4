import { StoreError, type StoreErrorOptions } from './store-error.ts';

export class InvalidSyncTokenError extends StoreError {
  constructor(reason: string) {
    super('INVALID_SYNC_TOKEN', 'The syncToken is stale or malformed; restart from the last checkpoint', {
      details: { reason },
    });
  }
}

export class SearchTermTooLongError extends StoreError {
  constructor(maxLength: number) {
    super('SEARCH_TERM_TOO_LONG', `q must be at most ${maxLength} characters`, {
      details: { maxLength },
    });
  }
}

export class InvalidSortFieldError extends StoreError {
  constructor(allowed: readonly string[]) {
    super('INVALID_SORT_FIELD', `sort must be one of: ${allowed.join(', ')}`, { details: { allowed } });
  }
}

export class InvalidSortError extends StoreError {
  constructor() {
    super('INVALID_SORT', 'order must be asc or desc');
  }
}

/** The query ran past its time budget; nothing partial is returned. */
export class SearchTimeoutError extends StoreError {
  constructor(budgetMs: number, options: StoreErrorOptions = {}) {
    super('SEARCH_TIMEOUT', 'The search exceeded its time budget', {
      ...options,
      details: { budgetMs },
    });
  }
}

/** The engine failed, so the page cannot be proven complete. It is not the end of results. */
export class SearchIncompleteError extends StoreError {
  constructor(options: StoreErrorOptions = {}) {
    super('SEARCH_INCOMPLETE', 'The search results could not be proven complete; retry later', options);
  }
}

export class IdentifierLookupIncompleteError extends StoreError {
  constructor(options: StoreErrorOptions = {}) {
    super('IDENTIFIER_LOOKUP_INCOMPLETE', 'The identifier lookup did not complete; retry later', options);
  }
}

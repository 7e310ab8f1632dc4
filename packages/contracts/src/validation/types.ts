// Shapes shared by the request and response validators.

/** What a transport hands to a request validator: raw query strings, path parameters and the parsed body. */
export interface RequestInput {
  readonly query?: Readonly<Record<string, unknown>> | undefined;
  readonly params?: Readonly<Record<string, unknown>> | undefined;
  readonly body?: unknown;
}

/** One invalid parameter or body property. */
export interface ValidationIssue<Code extends string = string> {
  /** The parameter name, or the dotted path of the body property (`scopes.0`); `body` for the body itself. */
  readonly field: string;
  readonly reason: string;
  /** The contract error code: the parameter's or schema's `x-error-code`, else the document's default. */
  readonly code: Code;
}

export type ValidationResult<Value, Code extends string = string> =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly issues: readonly ValidationIssue<Code>[] };

/** One way a response departs from the document. */
export interface ResponseIssue {
  /** Dotted path in the body (`data.0.price`); `body` for the body itself, `status` for an undocumented status. */
  readonly field: string;
  readonly reason: string;
}

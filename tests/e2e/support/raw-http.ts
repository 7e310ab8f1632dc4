// One HTTPS request exactly as given (raw path with its percent-encoding, headers, body bytes) over the
// stack's keep-alive dispatcher, for the bad-input suites: the stack's `api()` encodes and serialises for
// the caller, which is what these suites must not do.
import type { Dispatcher } from 'undici';
import { request } from 'undici';

export interface RawCall {
  readonly method: string;
  /** Path and query exactly as sent (already percent-encoded, or deliberately not). */
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The parsed JSON body, or the text when it is not JSON, or undefined when empty. */
  readonly body: unknown;
}

export async function rawCall(baseUrl: string, dispatcher: Dispatcher, call: RawCall): Promise<RawAnswer> {
  const reply = await request(`${baseUrl}${call.path}`, {
    method: call.method as Dispatcher.HttpMethod,
    headers: call.headers ?? {},
    ...(call.body === undefined ? {} : { body: call.body }),
    dispatcher,
    // A rejected request is answered; nothing here should hang, whatever was sent.
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  const text = await reply.body.text();
  let body: unknown = text === '' ? undefined : text;
  try {
    if (text !== '') body = JSON.parse(text);
  } catch {
    // Not JSON: the text is the body (the docs page).
  }
  return { status: reply.statusCode, headers: reply.headers, text, body };
}

/** A short description of a call for failure messages (long values cut). */
export function describeCall(call: RawCall): string {
  const cut = (value: string, max: number) =>
    value.length > max ? `${value.slice(0, max)}…(${value.length} chars)` : value;
  const headers = Object.entries(call.headers ?? {})
    .map(([name, value]) => `${name}: ${cut(value, 120)}`)
    .join('; ');
  const body = call.body === undefined ? '' : ` body=${cut(String(call.body), 300)}`;
  return `${call.method} ${cut(call.path, 300)} [${headers}]${body}`;
}

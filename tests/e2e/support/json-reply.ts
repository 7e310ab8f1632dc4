// A reply read whole, its body parsed when it is JSON: what the stack's `api` and a cluster
// instance's `direct` call both return.
import type { Dispatcher } from 'undici';

export interface JsonReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The parsed body, or the raw text when it is not JSON. */
  readonly body: unknown;
  readonly text: string;
}

export async function readJsonReply(reply: Dispatcher.ResponseData): Promise<JsonReply> {
  const text = await reply.body.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the raw text is the body (the docs page, a plain-text refusal).
  }
  return { status: reply.statusCode, headers: reply.headers, body: parsed, text };
}

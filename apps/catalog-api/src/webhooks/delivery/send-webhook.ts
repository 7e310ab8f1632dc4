import { type Dispatcher, errors, request } from 'undici';
import { checkEndpointForm, type EndpointPolicy, EndpointRefusedError } from './endpoint-policy.ts';
import { parseRetryAfter } from './retry-schedule.ts';
import { signWebhook } from './sign-webhook.ts';

const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

/** One attempt to deliver one event to one endpoint. */
export interface WebhookMessage {
  url: string;
  messageId: string;
  timestamp: Date;
  body: string;
  secrets: string[];
}

/**
 * What one attempt came to: `delivered` (2xx), `gone` (410: the endpoint wants no more), `retry`
 * (any other answer, or none), `refused` (the endpoint or the body breaks a rule: not sent).
 */
export interface DeliveryOutcome {
  kind: 'delivered' | 'gone' | 'retry' | 'refused';
  statusCode: number | null;
  error: string | null;
  retryAfterMs: number | null;
  latencyMs: number;
}

export interface WebhookSender {
  send(message: WebhookMessage): Promise<DeliveryOutcome>;
}

const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
]);

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} s`;

/** A short account of why an attempt got no answer, for the delivery log (never the whole stack). */
function failureText(error: unknown, elapsedMs: number): string {
  const cause = (error as { cause?: unknown }).cause ?? error;
  if (cause instanceof EndpointRefusedError) return cause.message;
  if (error instanceof errors.ConnectTimeoutError) return `timed out after ${seconds(elapsedMs)} connecting`;
  if (error instanceof errors.HeadersTimeoutError)
    return `timed out after ${seconds(elapsedMs)} waiting for the response`;
  if (error instanceof errors.BodyTimeoutError)
    return `timed out after ${seconds(elapsedMs)} reading the response`;
  const code = (cause as { code?: string }).code ?? (error as { code?: string }).code;
  if (code !== undefined && CERTIFICATE_CODES.has(code)) return `certificate not trusted (${code})`;
  switch (code) {
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return 'certificate not valid for the host name';
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection closed before a response';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NODATA':
      return 'the host name does not resolve';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host is unreachable';
    case 'ETIMEDOUT':
      return `timed out after ${seconds(elapsedMs)} connecting`;
    default:
      if (code?.startsWith('ERR_SSL_') === true) return `TLS handshake failed (${code})`;
      return code === undefined ? String((cause as Error).message ?? cause) : `failed (${code})`;
  }
}

/** Reads at most `limit` bytes of a response body and drops the rest (an endpoint cannot make us read a gigabyte). */
async function discardBody(body: Dispatcher.ResponseData['body'], limit: number): Promise<void> {
  let read = 0;
  try {
    for await (const chunk of body) {
      read += (chunk as Buffer).length;
      if (read >= limit) break;
    }
  } finally {
    body.destroy();
  }
}

function classify(
  status: number,
  headers: Dispatcher.ResponseData['headers'],
  latencyMs: number,
): DeliveryOutcome {
  if (status >= 200 && status < 300)
    return { kind: 'delivered', statusCode: status, error: null, retryAfterMs: null, latencyMs };
  if (status === 410)
    return { kind: 'gone', statusCode: status, error: 'answered 410 Gone', retryAfterMs: null, latencyMs };
  const retryAfter = headers['retry-after'];
  return {
    kind: 'retry',
    statusCode: status,
    error:
      status >= 300 && status < 400
        ? `redirected (${status}) — redirects are not followed`
        : `answered ${status}`,
    retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter),
    latencyMs,
  };
}

/**
 * Sends one attempt and says what it came to. Never throws: a refused address, a time-out or a bad
 * certificate is an outcome like a status code. Redirects are not followed (the dispatcher has no
 * redirect handling): a 3xx is a failed attempt, so a subscription cannot be bounced to an address the
 * policy would refuse.
 */
export function createWebhookSender(options: {
  dispatcher: Dispatcher;
  policy: EndpointPolicy;
  maxBodyBytes?: number;
  maxResponseBytes?: number;
}): WebhookSender {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxResponse = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const refused = (error: string, latencyMs = 0): DeliveryOutcome => ({
    kind: 'refused',
    statusCode: null,
    error,
    retryAfterMs: null,
    latencyMs,
  });
  return {
    async send(message) {
      const bodyBytes = Buffer.byteLength(message.body);
      if (bodyBytes > maxBody)
        return refused(`the body is ${bodyBytes} bytes, over the ${maxBody} allowed: not sent`);
      let headers: Record<string, string>;
      try {
        // The form only: resolving the name here too cost the process a sixth of its time at
        // thousands of attempts a second, and proved nothing the dispatcher's guarded lookup does
        // not check again on every connection it opens.
        checkEndpointForm(message.url, options.policy);
        headers = signWebhook(message);
      } catch (error) {
        return refused(
          error instanceof EndpointRefusedError ? error.message : `not signed: ${String(error)}`,
        );
      }
      const started = performance.now();
      try {
        const response = await request(message.url, {
          method: 'POST',
          dispatcher: options.dispatcher,
          headers,
          body: message.body,
        });
        const latencyMs = performance.now() - started;
        await discardBody(response.body, maxResponse).catch(() => undefined);
        return classify(response.statusCode, response.headers, latencyMs);
      } catch (error) {
        const latencyMs = performance.now() - started;
        const cause = (error as { cause?: unknown }).cause;
        if (error instanceof EndpointRefusedError || cause instanceof EndpointRefusedError)
          return refused(failureText(error, latencyMs), latencyMs);
        return {
          kind: 'retry',
          statusCode: null,
          error: failureText(error, latencyMs),
          retryAfterMs: null,
          latencyMs,
        };
      }
    },
  };
}

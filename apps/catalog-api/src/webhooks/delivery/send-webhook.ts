import { type Dispatcher, errors, request } from 'undici';
import type { OutgoingWebhook, SendOutcome } from '../delivery-worker.ts';
import { checkEndpointUrl, type EndpointPolicy, EndpointRefusedError } from './endpoint-policy.ts';
import { parseRetryAfter } from './retry-schedule.ts';
import { signWebhook } from './sign-webhook.ts';

const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

/** A short account of why an attempt got no answer, for the delivery log (never the whole stack). */
function failureText(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause ?? error;
  if (cause instanceof EndpointRefusedError) return cause.message;
  if (error instanceof errors.ConnectTimeoutError) return 'timed out connecting';
  if (error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError)
    return 'timed out waiting for the answer';
  const code = (cause as { code?: string }).code ?? (error as { code?: string }).code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection closed before an answer';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host does not resolve';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'CERT_HAS_EXPIRED':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `the endpoint's certificate is not trusted (${code})`;
    default:
      return code === undefined ? String((cause as Error).message ?? cause) : `failed (${code})`;
  }
}

/** Reads at most `limit` bytes of an answer's body and drops the rest (an endpoint cannot make us read a gigabyte). */
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
}): { send(message: OutgoingWebhook): Promise<SendOutcome> } {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxResponse = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const refused = (error: string): SendOutcome => ({
    kind: 'refused',
    statusCode: null,
    error,
    retryAfterMs: null,
    latencyMs: 0,
  });
  return {
    async send(message) {
      if (Buffer.byteLength(message.body) > maxBody)
        return refused(`the event body is over ${maxBody} bytes: not sent`);
      try {
        await checkEndpointUrl(message.url, options.policy);
      } catch (error) {
        if (error instanceof EndpointRefusedError) return refused(error.message);
        throw error;
      }
      const started = performance.now();
      try {
        const answer = await request(message.url, {
          method: 'POST',
          dispatcher: options.dispatcher,
          headers: signWebhook(message),
          body: message.body,
        });
        const latencyMs = performance.now() - started;
        await discardBody(answer.body, maxResponse);
        const status = answer.statusCode;
        if (status >= 200 && status < 300)
          return { kind: 'delivered', statusCode: status, error: null, retryAfterMs: null, latencyMs };
        if (status === 410)
          return {
            kind: 'gone',
            statusCode: status,
            error: 'answered 410 Gone',
            retryAfterMs: null,
            latencyMs,
          };
        const retryAfter = answer.headers['retry-after'];
        return {
          kind: 'retry',
          statusCode: status,
          error:
            status >= 300 && status < 400
              ? `redirected (${status}): redirects are not followed`
              : `answered ${status}`,
          retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter),
          latencyMs,
        };
      } catch (error) {
        const latencyMs = performance.now() - started;
        const cause = (error as { cause?: unknown }).cause;
        if (error instanceof EndpointRefusedError || cause instanceof EndpointRefusedError)
          return { ...refused(failureText(error)), latencyMs };
        return { kind: 'retry', statusCode: null, error: failureText(error), retryAfterMs: null, latencyMs };
      }
    },
  };
}

import { rawRequest } from './spawn-service.ts';

/**
 * POST {authUrl}/oauth2/token with client credentials in the form body, scopes given without the
 * `crm-api/` prefix. Resolves with the status and, on 200, the access token.
 */
export async function requestAccessToken(input: {
  readonly authUrl: string;
  readonly ca: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes: readonly string[];
}): Promise<{ readonly status: number; readonly token: string | undefined; readonly body: string }> {
  const reply = await rawRequest(`${input.authUrl}/oauth2/token`, {
    method: 'POST',
    ca: input.ca,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: input.clientId,
      client_secret: input.clientSecret,
      scope: input.scopes.map((scope) => `crm-api/${scope}`).join(' '),
    }).toString(),
  });
  const token =
    reply.status === 200 ? (JSON.parse(reply.body) as { access_token: string }).access_token : undefined;
  return { status: reply.status, token, body: reply.body };
}

import type { IncomingMessage, ServerResponse } from 'node:http';

const BODY = JSON.stringify({ message: 'A request must carry exactly one Host header.' });

/**
 * Node keeps the first of several Host headers and drops the others, while a proxy or cache in
 * front may have used another one: a request naming two hosts is refused (400), never guessed at.
 * Returns true when it answered.
 */
export function refuseAmbiguousHost(req: IncomingMessage, res: ServerResponse): boolean {
  let hosts = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]?.toLowerCase() === 'host') hosts += 1;
  }
  if (hosts <= 1) return false;
  res.writeHead(400, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(BODY),
    'X-Content-Type-Options': 'nosniff',
    Connection: 'close',
  });
  res.end(BODY);
  return true;
}

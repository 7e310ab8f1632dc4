const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and double-quoted attributes. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

/**
 * A minimal page: no scripts, no external resources, so the strict CSP below holds. Its content is the
 * page's main landmark, so that assistive technology can jump to it (axe: landmark-one-main, region).
 */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:22rem;margin:4rem auto;padding:0 1rem;color:#222}
label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.5rem;box-sizing:border-box}
button{margin-top:1.2rem;padding:.6rem 1.2rem}.error{color:#a00;margin:1rem 0}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

const pagePolicy = (formAction: readonly string[]) =>
  `default-src 'none'; style-src 'unsafe-inline'; form-action ${["'self'", ...formAction].join(' ')}; frame-ancestors 'none'; base-uri 'none'`;

/** Headers for every page we render: no framing (clickjacking), no inline scripts, no caching. */
export const PAGE_HEADERS = {
  'Content-Security-Policy': pagePolicy([]),
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
} as const;

/**
 * The login page's headers: PAGE_HEADERS, its form also allowed to lead to the console origins.
 * Chromium applies form-action to every redirect after the POST, and a successful sign-in redirects
 * to the console's callback on the catalog API's origin.
 */
export function loginPageHeaders(consoleOrigins: readonly string[]): Record<string, string> {
  return {
    ...PAGE_HEADERS,
    'Content-Security-Policy': pagePolicy(consoleOrigins),
    // A browser sends `Origin: null` with a form POST from a no-referrer page, and the POST handler
    // refuses any origin but its own (CSRF). same-origin still sends nothing to another origin.
    'Referrer-Policy': 'same-origin',
  };
}

// The nginx template's rendering (scripts/cluster/nginx-config.mts), which `pnpm start:cluster` and
// every cluster here rely on: each placeholder filled, one upstream line per instance, and nothing
// a value could smuggle into the configuration.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { renderTemplate, TemplateError } from '../../../scripts/cluster/nginx-config.mts';

const template = () =>
  readFile(new URL('../../../deploy/nginx/catalog.conf.template', import.meta.url), 'utf8');

const site = (prefix: string, upstreams: readonly string[]) => ({
  [`${prefix}_UPSTREAM`]: upstreams,
  [`${prefix}_LISTEN`]: '127.0.0.1:8443',
  [`${prefix}_SERVER_NAME`]: 'catalog.example.com',
  [`${prefix}_CERTIFICATE`]: '/etc/ssl/catalog.pem',
  [`${prefix}_CERTIFICATE_KEY`]: '/etc/ssl/private/catalog.key',
});

const shared = {
  ACCESS_LOG: '/var/log/nginx/catalog-access.log',
  CLIENT_HEADER_TIMEOUT: '20s',
  CLIENT_BODY_TIMEOUT: '20s',
  SEND_TIMEOUT: '30s',
  KEEPALIVE_TIMEOUT: '15s',
  LINGERING_TIME: '5s',
};

describe('the nginx template', () => {
  it('renders every placeholder outside the comments, with one upstream server line per instance', async () => {
    const text = renderTemplate(await template(), {
      ...site('CATALOG_API', ['10.0.0.1:3000', '10.0.0.2:3000', '10.0.0.3:3000']),
      ...site('AUTH_SERVER', ['10.0.1.1:4000']),
      ...shared,
    });
    const directives = text.split('\n').filter((line) => !line.trimStart().startsWith('#'));
    expect(directives.filter((line) => line.includes('{{'))).toEqual([]);
    expect(directives.filter((line) => /^\s*server 10\.0\.0\.\d:3000 max_fails/.test(line))).toHaveLength(3);
    expect(directives.filter((line) => /^\s*server 10\.0\.1\.1:4000 max_fails/.test(line))).toHaveLength(1);
  });

  it('logs the path without the query string: no log format names the request line, the URI with its query, the arguments or the Referer', async () => {
    const text = renderTemplate(await template(), {
      ...site('CATALOG_API', ['10.0.0.1:3000']),
      ...site('AUTH_SERVER', ['10.0.1.1:4000']),
      ...shared,
    });
    const formats = text.match(/log_format[^;]*;/g) ?? [];
    expect(formats).toHaveLength(1);
    for (const variable of [
      '$request ',
      '$request"',
      '$request_uri',
      '$args',
      '$query_string',
      '$arg_',
      '$http_referer',
    ])
      expect(formats[0], variable).not.toContain(variable);
    expect(formats[0]).toContain('$uri');
    const logs = text.split('\n').filter((line) => /^\s*access_log /.test(line));
    expect(logs.length).toBeGreaterThan(0);
    for (const line of logs) expect(line).toMatch(/ catalog_redacted;$/);
  });

  it('refuses a value that would end or split a directive, a placeholder without a value, and a value without a placeholder', async () => {
    const text = await template();
    const values: Record<string, string | readonly string[]> = {
      ...site('CATALOG_API', ['10.0.0.1:3000']),
      ...site('AUTH_SERVER', ['10.0.1.1:4000']),
      ...shared,
    };
    for (const unsafe of ['a; include /etc/passwd', 'two words', 'x{', '#', "'", ''])
      expect(() => renderTemplate(text, { ...values, CATALOG_API_SERVER_NAME: unsafe }), unsafe).toThrow(
        TemplateError,
      );
    const { AUTH_SERVER_LISTEN: _, ...missing } = values;
    expect(() => renderTemplate(text, missing)).toThrow(/no value for \{\{AUTH_SERVER_LISTEN\}\}/);
    expect(() => renderTemplate(text, { ...values, EXTRA: 'x' })).toThrow(/no placeholder for EXTRA/);
    expect(() => renderTemplate(text, { ...values, AUTH_SERVER_UPSTREAM: [] })).toThrow(TemplateError);
  });
});

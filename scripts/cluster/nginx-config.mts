// The nginx configuration of a cluster, rendered from the templates in deploy/nginx: the one copy
// that `pnpm start:cluster` and the cluster tests both run. Node built-ins only, so the start script
// runs it from the repository root without a build.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const templateDir = new URL('../../deploy/nginx/', import.meta.url);
const PLACEHOLDER = /\{\{([A-Z_]+)\}\}/g;
// A value is spliced into a directive: nothing in it may end the directive, open a block, start a
// comment or quote, or split it into two arguments.
const UNSAFE = /[\s;{}#'"\\]/;

export type TemplateValues = Readonly<Record<string, string | readonly string[]>>;

export class TemplateError extends Error {
  override readonly name = 'TemplateError';
}

/**
 * Replaces each `{{NAME}}` with its value; a line holding a list is written once per item; comment
 * lines are kept as they are (they name the placeholders). Every placeholder must have a value, every
 * value a placeholder, and no value may hold what would change the directive it lands in.
 */
export function renderTemplate(template: string, values: TemplateValues): string {
  const unused = new Set(Object.keys(values));
  const lookup = (name: string): string | readonly string[] => {
    const value = values[name];
    if (value === undefined) throw new TemplateError(`no value for {{${name}}}`);
    unused.delete(name);
    for (const item of typeof value === 'string' ? [value] : value) {
      if (item === '' || UNSAFE.test(item))
        throw new TemplateError(`{{${name}}}: "${item}" is empty or holds a space, quote, ; { } # or \\`);
    }
    return value;
  };
  const lines = template.split('\n').flatMap((line) => {
    if (line.trimStart().startsWith('#')) return [line];
    const names = [...line.matchAll(PLACEHOLDER)].map((match) => match[1] as string);
    const lists = [...new Set(names)].filter((name) => typeof lookup(name) !== 'string');
    if (lists.length > 1) throw new TemplateError(`one list per line: ${lists.join(', ')}`);
    const scalar = (text: string) => text.replace(PLACEHOLDER, (_, name: string) => lookup(name) as string);
    const [list] = lists;
    if (list === undefined) return [scalar(line)];
    const items = lookup(list) as readonly string[];
    if (items.length === 0) throw new TemplateError(`{{${list}}} lists nothing`);
    return items.map((item) => scalar(line.replaceAll(`{{${list}}}`, item)));
  });
  if (unused.size > 0) throw new TemplateError(`no placeholder for ${[...unused].join(', ')}`);
  return lines.join('\n');
}

/** One public server of the cluster: where nginx listens for it, its certificate, its instances. */
export interface NginxSite {
  /** `listen` argument: a port, or address:port. */
  readonly listen: string;
  readonly serverName: string;
  readonly certificate: string;
  readonly certificateKey: string;
  /** host:port of each instance. */
  readonly upstreams: readonly string[];
}

/** How long nginx gives a slow or silent caller, as nginx time values (`20s`, `500ms`). */
export interface NginxTimeouts {
  /** The whole request line and headers (and, on nginx before 1.25.5, the TLS handshake). */
  readonly clientHeader: string;
  /** Between two reads of a body: the instance the body streams to bounds the whole of it. */
  readonly clientBody: string;
  /** Between two writes of an answer to a caller that does not read it. */
  readonly send: string;
  /** An idle kept-alive connection of a caller. */
  readonly keepalive: string;
  /** Reading (and dropping) what a caller still sends after an answer that ends its request early. */
  readonly lingering: string;
}

/** The instances' HTTP_HEADERS_TIMEOUT_MS for headers and between reads of a body. */
export const DEFAULT_NGINX_TIMEOUTS: NginxTimeouts = Object.freeze({
  clientHeader: '20s',
  clientBody: '20s',
  send: '30s',
  keepalive: '15s',
  lingering: '5s',
});

export interface ClusterNginxConfig {
  /** Where the configuration, pid file, access log and nginx's temporary paths go. */
  readonly runDir: string;
  readonly catalogApi: NginxSite;
  readonly authServer: NginxSite;
  /** The defaults when absent; tests shorten them. */
  readonly timeouts?: NginxTimeouts;
}

/** The access log of a rendered configuration, in its run directory. */
export const accessLogOf = (runDir: string) => join(runDir, 'access.log');

const siteValues = (prefix: string, site: NginxSite) => ({
  [`${prefix}_UPSTREAM`]: site.upstreams,
  [`${prefix}_LISTEN`]: site.listen,
  [`${prefix}_SERVER_NAME`]: site.serverName,
  [`${prefix}_CERTIFICATE`]: site.certificate,
  [`${prefix}_CERTIFICATE_KEY`]: site.certificateKey,
});

/** Writes catalog.conf and the standalone nginx.conf that includes it; resolves with nginx.conf's path. */
export async function writeNginxConfig(config: ClusterNginxConfig): Promise<string> {
  const template = (name: string) => readFile(new URL(name, templateDir), 'utf8');
  await mkdir(config.runDir, { recursive: true, mode: 0o700 });
  const site = join(config.runDir, 'catalog.conf');
  const main = join(config.runDir, 'nginx.conf');
  const timeouts = config.timeouts ?? DEFAULT_NGINX_TIMEOUTS;
  const accessLog = accessLogOf(config.runDir);
  // nginx would create it world-readable (0644); created here first, it keeps the owner's mode.
  await writeFile(accessLog, '', { flag: 'a', mode: 0o600 });
  await chmod(accessLog, 0o600);
  await writeFile(
    site,
    renderTemplate(await template('catalog.conf.template'), {
      ...siteValues('CATALOG_API', config.catalogApi),
      ...siteValues('AUTH_SERVER', config.authServer),
      ACCESS_LOG: accessLog,
      CLIENT_HEADER_TIMEOUT: timeouts.clientHeader,
      CLIENT_BODY_TIMEOUT: timeouts.clientBody,
      SEND_TIMEOUT: timeouts.send,
      KEEPALIVE_TIMEOUT: timeouts.keepalive,
      LINGERING_TIME: timeouts.lingering,
    }),
  );
  await writeFile(
    main,
    renderTemplate(await template('standalone.conf.template'), { RUN_DIR: config.runDir, SITE_CONFIG: site }),
  );
  return main;
}

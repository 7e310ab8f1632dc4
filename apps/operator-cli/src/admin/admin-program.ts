import type { WebhookEventType } from '@catalog/store';
import { Command } from 'commander';
import { commanderWriters, type Output } from '../output.ts';
import {
  AUDIT_LIMIT_DEFAULT,
  type AuditCommandOptions,
  parseAuditAction,
  parseAuditLimit,
  parseAuditTargetType,
  parseAuditTime,
  parseEventId,
  parseNonEmpty,
  runAudit,
} from './commands/audit.ts';
import { runKeysRotate } from './commands/keys.ts';
import { runToken } from './commands/token.ts';
import { runUsersAdd, runUsersDisable, runUsersList } from './commands/users.ts';
import {
  parseDeliveryCursor,
  parseDeliveryLimit,
  parseDeliveryStatus,
  parseEventType,
  parseInstant,
  parseOverlapHours,
  runWebhooksCreate,
  runWebhooksDelete,
  runWebhooksDeliveries,
  runWebhooksDisable,
  runWebhooksEnable,
  runWebhooksList,
  runWebhooksRedeliver,
  runWebhooksRotateSecret,
} from './commands/webhooks.ts';
import {
  type AdminEnv,
  type ApiOptions,
  processEnv,
  readAdminEnv,
  readApiTarget,
} from './config/admin-env.ts';

const DATA_DIR_HELP = 'data directory (default: $DATA_DIR or ./data)';
const collect = (value: string, previous: string[]) => [...previous, value];

/** `pnpm admin …`: administrators, their ID tokens, the token server's signing keys, the audit trail. */
export function adminProgram(output: Output): Command {
  const env = (options: { dataDir?: string }): AdminEnv => readAdminEnv(options, processEnv());
  const program = new Command('admin').description('Administer the token server');
  program.exitOverride();
  program.configureOutput(commanderWriters(output));

  const users = program.command('users').description('administrators who sign in to the admin console');
  users
    .command('add')
    .description('create an administrator; the password comes from stdin or ADMIN_PASSWORD')
    .requiredOption('--email <email>', 'sign-in email')
    .requiredOption('--group <group>', 'group to join, repeatable (admin for the admin routes)', collect, [])
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action((options: { email: string; group: string[]; dataDir?: string }) =>
      runUsersAdd(env(options), { email: options.email, groups: options.group }, output),
    );
  users
    .command('list')
    .description('list administrators (email, groups, status, creation time)')
    .option('--json', 'print JSON', false)
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action((options: { json: boolean; dataDir?: string }) => runUsersList(env(options), options, output));
  users
    .command('disable')
    .description('disable an administrator: no further sign-in')
    .requiredOption('--email <email>', 'sign-in email')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action((options: { email: string; dataDir?: string }) => runUsersDisable(env(options), options, output));

  program
    .command('token')
    .description(
      'sign in through the login page (authorization code + PKCE over HTTPS) and print only the ID token',
    )
    .requiredOption('--email <email>', 'sign-in email; the password comes from stdin or ADMIN_PASSWORD')
    .option('--ca <file>', 'CA certificate to trust (default: DATA_DIR/tls/ca.pem when present)')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action((options: { email: string; ca?: string; dataDir?: string }) =>
      runToken(env(options), { email: options.email, ...(options.ca ? { caFile: options.ca } : {}) }, output),
    );

  const keys = program.command('keys').description("the token server's signing keys");
  keys
    .command('rotate')
    .description(
      'two-step rotation: the first run stages a new key, the next (10 minutes later) makes it sign',
    )
    .option(
      '--force',
      'promote the staged key without waiting for JWKS caches (only when nothing caches them)',
      false,
    )
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action((options: { force: boolean; dataDir?: string }) => runKeysRotate(env(options), options, output));

  program
    .command('audit')
    .description('list the audit trail of administrative actions, newest first (read-only)')
    .option('--actor <actor>', "an administrator's user id or email, or operator-cli", parseNonEmpty)
    .option('--action <action>', 'one action, e.g. client.update or admin.sign-in-failure', parseAuditAction)
    .option(
      '--target-type <type>',
      'client, product, brand, web-channel, admin-user, signing-key or catalogue',
      parseAuditTargetType,
    )
    .option(
      '--target-id <id>',
      "the target's id (client id, product id, channel slug, key id…)",
      parseNonEmpty,
    )
    .option('--since <time>', 'events at or after this ISO 8601 date or date-time', parseAuditTime)
    .option('--until <time>', 'events before this ISO 8601 date or date-time', parseAuditTime)
    .option('--limit <n>', 'events per page (1 to 1000)', parseAuditLimit, AUDIT_LIMIT_DEFAULT)
    .option(
      '--before <id>',
      'events older than this event id (the next page, as printed on stderr)',
      parseEventId,
    )
    .option('--json', 'one JSON object per line instead of a table', false)
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .action((options: AuditCommandOptions & { dataDir?: string }) => runAudit(env(options), options, output));

  webhooksCommands(program, output);
  return program;
}

type ApiCommandOptions = ApiOptions & { dataDir?: string };

/** `pnpm admin webhooks …`: through the catalog API, with an administrator's ID token. */
function webhooksCommands(program: Command, output: Output): void {
  const target = (options: ApiCommandOptions) =>
    readApiTarget(options, readAdminEnv(options, processEnv()), processEnv());
  const webhooks = program
    .command('webhooks')
    .description("webhook subscriptions of M2M clients, through the catalog API's admin routes");
  const command = (name: string, description: string) =>
    webhooks
      .command(name)
      .description(description)
      .option(
        '--api-url <url>',
        'the catalog API (default: $PUBLIC_CATALOG_URL or https://localhost:$CATALOG_API_PORT, 3000)',
      )
      .option(
        '--token <idToken>',
        "an administrator's ID token (default: $ADMIN_ID_TOKEN; see `admin token`)",
      )
      .option('--ca <file>', 'CA certificate to trust (default: DATA_DIR/tls/ca.pem when present)')
      .option('--data-dir <dir>', DATA_DIR_HELP);

  command('list', 'list the subscriptions, oldest first (never their secrets)')
    .option('--client <clientId>', "only this client's subscriptions")
    .option('--json', 'one JSON object per line instead of a table', false)
    .action((options: ApiCommandOptions & { client?: string; json: boolean }) =>
      runWebhooksList(target(options), options, output),
    );
  command('create', "subscribe a client's HTTPS endpoint; prints the signing secret, shown this once")
    .requiredOption('--client <clientId>', 'the M2M client whose scopes allow the events')
    .requiredOption('--url <url>', 'the https:// endpoint')
    .requiredOption(
      '--event <type>',
      'event type, repeatable',
      (value, previous: WebhookEventType[]) => [...previous, parseEventType(value)],
      [],
    )
    .option('--description <text>', 'what the endpoint is')
    .action(
      (
        options: ApiCommandOptions & {
          client: string;
          url: string;
          event: WebhookEventType[];
          description?: string;
        },
      ) => runWebhooksCreate(target(options), options, output),
    );
  command('disable', 'stop deliveries to a subscription (they wait until it is enabled)')
    .argument('<id>', 'subscription id')
    .action((id: string, options: ApiCommandOptions) => runWebhooksDisable(target(options), id, output));
  command('enable', 'resume deliveries; clears the failing state')
    .argument('<id>', 'subscription id')
    .action((id: string, options: ApiCommandOptions) => runWebhooksEnable(target(options), id, output));
  command('rotate-secret', 'a new signing secret; the old one also signs for the overlap')
    .argument('<id>', 'subscription id')
    .option(
      '--overlap-hours <n>',
      'hours the old secret still signs (0 to 168, default 24)',
      parseOverlapHours,
    )
    .action((id: string, options: ApiCommandOptions & { overlapHours?: number }) =>
      runWebhooksRotateSecret(target(options), id, options, output),
    );
  command('deliveries', "a subscription's delivery log, newest first")
    .argument('<id>', 'subscription id')
    .option('--status <status>', 'pending, delivering, succeeded, failed or cancelled', parseDeliveryStatus)
    .option('--limit <n>', 'deliveries per page (1 to 200, default 50)', parseDeliveryLimit)
    .option('--before <cursor>', 'the next page, as printed on stderr', parseDeliveryCursor)
    .option('--json', 'one JSON object per line instead of a table', false)
    .action((id: string, options: ApiCommandOptions & { json: boolean }) =>
      runWebhooksDeliveries(target(options), id, options, output),
    );
  command('redeliver', 'send events again: one delivery, or those that occurred in [--from, --to)')
    .argument('<id>', 'subscription id')
    .option('--delivery <msgId>', 'one delivery id (msg_…)')
    .option('--from <time>', 'ISO 8601 date-time with zone', parseInstant)
    .option('--to <time>', 'ISO 8601 date-time with zone', parseInstant)
    .action((id: string, options: ApiCommandOptions & { delivery?: string; from?: string; to?: string }) =>
      runWebhooksRedeliver(target(options), id, options, output),
    );
  command('delete', 'delete a subscription and its delivery log')
    .argument('<id>', 'subscription id')
    .action((id: string, options: ApiCommandOptions) => runWebhooksDelete(target(options), id, output));
}

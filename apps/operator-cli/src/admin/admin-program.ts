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
import { type AdminEnv, processEnv, readAdminEnv } from './config/admin-env.ts';

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
  return program;
}

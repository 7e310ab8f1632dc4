import type { Redis } from 'ioredis';

// KEYS[1] an artefact's hash; ARGV[1] epoch seconds. Only an artefact that still exists is marked:
// HSET on one that has just expired would create a key without a lifetime.
const CONSUME = `
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HSET', KEYS[1], 'consumed', ARGV[1])
end
return 0
`;

// KEYS[1] a grant's list of artefact keys. The artefacts and the list go together: an artefact
// issued under the grant meanwhile cannot be left behind.
const REVOKE_GRANT = `
local members = redis.call('LRANGE', KEYS[1], 0, -1)
for i = 1, #members do
  redis.call('DEL', members[i])
end
redis.call('DEL', KEYS[1])
return #members
`;

// KEYS[1] the sign-ins index; ARGV now (epoch ms), capacity, the reservation's member, when it
// expires (epoch ms). Entries past their time leave first, then room is given only below the
// capacity, all at once: instances reserving together cannot both take the last place.
const RESERVE = `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
local ttl = tonumber(ARGV[4]) - now
redis.call('PEXPIRE', KEYS[1], ttl, 'NX')
redis.call('PEXPIRE', KEYS[1], ttl, 'GT')
return 1
`;

export interface SignInScripts {
  consume(key: string, atSeconds: number): Promise<unknown>;
  revokeGrant(grantKey: string): Promise<unknown>;
  /** 1 when room was reserved, 0 when the index is full. */
  reserve(index: string, now: number, capacity: number, member: string, expiresAt: number): Promise<number>;
}

type Command = (...args: (string | number)[]) => Promise<unknown>;

/** The scripts as commands of `client`, each one EVALSHA (ioredis sends the script when Redis lacks it). */
export function signInScripts(client: Redis): SignInScripts {
  client.defineCommand('authConsumeArtefact', { numberOfKeys: 1, lua: CONSUME });
  client.defineCommand('authRevokeGrant', { numberOfKeys: 1, lua: REVOKE_GRANT });
  client.defineCommand('authReserveSignIn', { numberOfKeys: 1, lua: RESERVE });
  const commands = client as unknown as Record<
    'authConsumeArtefact' | 'authRevokeGrant' | 'authReserveSignIn',
    Command
  >;
  return {
    consume: (key, atSeconds) => commands.authConsumeArtefact(key, atSeconds),
    revokeGrant: (grantKey) => commands.authRevokeGrant(grantKey),
    reserve: async (index, now, capacity, member, expiresAt) =>
      Number(await commands.authReserveSignIn(index, now, capacity, member, expiresAt)),
  };
}

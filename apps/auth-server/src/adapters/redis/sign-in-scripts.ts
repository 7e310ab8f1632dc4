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

// Shared by the interaction scripts. An index key lives as long as its longest-lived member: the
// lifetime is the interaction's (every interaction has one). add_open makes an interaction's key the
// newest open one and evicts the oldest past the capacity, artefact and all. Open ones are scored by
// a sequence, not a clock: two opened within one millisecond still have an order.
const INDEX_FUNCTIONS = `
local function last_as_long(index, ttl)
  redis.call('PEXPIRE', index, ttl, 'NX')
  redis.call('PEXPIRE', index, ttl, 'GT')
end
local function add_open(index, key, capacity, ttl)
  local newest = redis.call('ZRANGE', index, -1, -1, 'WITHSCORES')
  local sequence = 1
  if #newest == 2 then
    sequence = tonumber(newest[2]) + 1
  end
  redis.call('ZADD', index, sequence, key)
  last_as_long(index, ttl)
  local excess = redis.call('ZCARD', index) - capacity
  if excess > 0 then
    local evicted = redis.call('ZPOPMIN', index, excess)
    for i = 1, #evicted, 2 do
      redis.call('DEL', evicted[i])
    end
  end
end
`;

// KEYS[1] the interaction's hash, KEYS[2] the open index, KEYS[3] the kept index; ARGV the payload,
// its lifetime (ms), now (epoch ms), the capacity. A kept interaction stays kept; any other is open.
const SAVE_INTERACTION = `${INDEX_FUNCTIONS}
local ttl = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'payload', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
if redis.call('ZSCORE', KEYS[3], KEYS[1]) then
  redis.call('ZADD', KEYS[3], now + ttl, KEYS[1])
  last_as_long(KEYS[3], ttl)
else
  add_open(KEYS[2], KEYS[1], tonumber(ARGV[4]), ttl)
end
return 0
`;

// KEYS as SAVE_INTERACTION's; ARGV now (epoch ms), the capacity. 1 kept, 0 the kept index is full,
// -1 the interaction has expired or been evicted. Kept ones past their time leave first.
const KEEP_INTERACTION = `
local now = tonumber(ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  return -1
end
if redis.call('ZSCORE', KEYS[3], KEYS[1]) then
  return 1
end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZREM', KEYS[2], KEYS[1])
redis.call('ZADD', KEYS[3], now + ttl, KEYS[1])
redis.call('PEXPIRE', KEYS[3], ttl, 'NX')
redis.call('PEXPIRE', KEYS[3], ttl, 'GT')
return 1
`;

// KEYS as SAVE_INTERACTION's; ARGV the capacity. A kept interaction still there
// becomes the newest open one.
const RELEASE_INTERACTION = `${INDEX_FUNCTIONS}
if redis.call('ZREM', KEYS[3], KEYS[1]) == 0 then
  return 0
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  return 0
end
add_open(KEYS[2], KEYS[1], tonumber(ARGV[1]), ttl)
return 1
`;

/** The keys an interaction script works on. */
export interface InteractionKeys {
  readonly artefact: string;
  readonly open: string;
  readonly kept: string;
}

export interface SignInScripts {
  consume(key: string, atSeconds: number): Promise<unknown>;
  revokeGrant(grantKey: string): Promise<unknown>;
  saveInteraction(
    keys: InteractionKeys,
    payload: string,
    ttlMs: number,
    now: number,
    capacity: number,
  ): Promise<unknown>;
  /** 1 kept, 0 when the kept index is full, -1 when the interaction is gone. */
  keepInteraction(keys: InteractionKeys, now: number, capacity: number): Promise<number>;
  releaseInteraction(keys: InteractionKeys, capacity: number): Promise<unknown>;
}

type Command = (...args: (string | number)[]) => Promise<unknown>;

/** The scripts as commands of `client`, each one EVALSHA (ioredis sends the script when Redis lacks it). */
export function signInScripts(client: Redis): SignInScripts {
  client.defineCommand('authConsumeArtefact', { numberOfKeys: 1, lua: CONSUME });
  client.defineCommand('authRevokeGrant', { numberOfKeys: 1, lua: REVOKE_GRANT });
  client.defineCommand('authSaveInteraction', { numberOfKeys: 3, lua: SAVE_INTERACTION });
  client.defineCommand('authKeepInteraction', { numberOfKeys: 3, lua: KEEP_INTERACTION });
  client.defineCommand('authReleaseInteraction', { numberOfKeys: 3, lua: RELEASE_INTERACTION });
  const commands = client as unknown as Record<
    | 'authConsumeArtefact'
    | 'authRevokeGrant'
    | 'authSaveInteraction'
    | 'authKeepInteraction'
    | 'authReleaseInteraction',
    Command
  >;
  const keysOf = (keys: InteractionKeys) => [keys.artefact, keys.open, keys.kept];
  return {
    consume: (key, atSeconds) => commands.authConsumeArtefact(key, atSeconds),
    revokeGrant: (grantKey) => commands.authRevokeGrant(grantKey),
    saveInteraction: (keys, payload, ttlMs, now, capacity) =>
      commands.authSaveInteraction(...keysOf(keys), payload, ttlMs, now, capacity),
    keepInteraction: async (keys, now, capacity) =>
      Number(await commands.authKeepInteraction(...keysOf(keys), now, capacity)),
    releaseInteraction: (keys, capacity) => commands.authReleaseInteraction(...keysOf(keys), capacity),
  };
}

/**
 * The whole decision of RequestLimiter.admit as one Lua script, so that a request costs one round
 * trip to Redis (EVALSHA) and instances deciding at the same moment cannot both take the last place:
 * Redis runs a script alone. rate-limiter-flexible's RateLimiterRedis would take one round trip for
 * the throttle, a second for its burst allowance once the sustained rate is used, and a third for
 * the rolling window it does not have.
 *
 * The same rules as the memory adapter (limit-rules.ts), over two hashes:
 *   KEYS[1]  the address's window: absolute slice number → requests admitted in that slice;
 *            slices older than the window are deleted as they are met, the key expires after a
 *            quiet window.
 *   KEYS[2]  the gateway throttle: s, n (start and count of the sustained window), bs, bn (of the
 *            burst allowance); expires after a quiet burst window.
 *   ARGV     now (ms, the calling instance's clock), the address limit (0: off), window ms, slices,
 *            rps (0: off), burst allowance above rps, sustained window ms, burst window ms.
 * Returns {0, 0} admitted, {1, retryAfterMs} refused by the address's window, {2, retryAfterMs}
 * refused by the throttle. Clocks of instances a few milliseconds apart only move a request into a
 * neighbouring slice: a window's start is never moved back, and a slice ahead of the caller's clock
 * still counts. A caller whose clock reads behind the window's start (read before its request waited
 * its turn in Redis) is still told at most the window's length: a second, never two.
 */
export const ADMIT_REQUEST_SCRIPT = `
local now = tonumber(ARGV[1])
local addressLimit = tonumber(ARGV[2])
local windowMs = tonumber(ARGV[3])
local slices = tonumber(ARGV[4])
local rps = tonumber(ARGV[5])
local burstExtra = tonumber(ARGV[6])
local sustainedMs = tonumber(ARGV[7])
local burstMs = tonumber(ARGV[8])

local sliceMs = windowMs / slices
local slice = math.floor(now / sliceMs)

if addressLimit > 0 then
  local fields = redis.call('HGETALL', KEYS[1])
  local counts = {}
  local total = 0
  local expired = {}
  for i = 1, #fields, 2 do
    local at = tonumber(fields[i])
    if at <= slice - slices then
      expired[#expired + 1] = fields[i]
    else
      counts[at] = (counts[at] or 0) + tonumber(fields[i + 1])
      total = total + tonumber(fields[i + 1])
    end
  end
  if #expired > 0 then
    redis.call('HDEL', KEYS[1], unpack(expired))
  end
  if total >= addressLimit then
    local leaving = 0
    for past = slice - slices + 1, slice do
      leaving = leaving + (counts[past] or 0)
      if total - leaving < addressLimit then
        return {1, math.max(1, math.ceil((past + slices) * sliceMs - now))}
      end
    end
    return {1, math.ceil(windowMs)}
  end
  -- Counted whatever the throttle decides: spec 8 counts every request of an address.
  redis.call('HINCRBY', KEYS[1], slice, 1)
  redis.call('PEXPIRE', KEYS[1], math.ceil(windowMs))
end

if rps > 0 then
  local state = redis.call('HMGET', KEYS[2], 's', 'n', 'bs', 'bn')
  local start = tonumber(state[1])
  local count = tonumber(state[2]) or 0
  if start == nil or now >= start + sustainedMs then
    start = now
    count = 0
  end
  if count < rps then
    redis.call('HSET', KEYS[2], 's', start, 'n', count + 1)
  else
    local burstStart = tonumber(state[3])
    local burstCount = tonumber(state[4]) or 0
    if burstStart == nil or now >= burstStart + burstMs then
      burstStart = now
      burstCount = 0
    end
    if burstCount >= burstExtra then
      return {2, math.min(sustainedMs, math.max(1, math.ceil(start + sustainedMs - now)))}
    end
    redis.call('HSET', KEYS[2], 's', start, 'n', count, 'bs', burstStart, 'bn', burstCount + 1)
  end
  redis.call('PEXPIRE', KEYS[2], burstMs)
end

return {0, 0}
`;

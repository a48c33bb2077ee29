/**
 * GCRA (generic cell rate algorithm) for one route bucket and the identity's global bucket,
 * decided and committed in one atomic script call: one round trip per request.
 *
 * Units are integer microseconds of Redis server time (`TIME`), so every replica decides
 * against the same clock however skewed its own is. A bucket with `limit` requests per
 * `window` has an emission interval T = floor(window / limit) and a burst of `limit`: a key
 * stores the theoretical arrival time (TAT), a request is admitted when
 * `max(TAT, now) + T - now <= limit * T`, i.e. a fresh bucket admits exactly `limit`
 * requests at once and then one per T. T is floored to whole microseconds so all arithmetic
 * is on exact integers (a double holds them exactly): no rounding can admit or refuse the
 * limit-th request by accident. The floor shortens a window by under `limit` microseconds.
 *
 * Semantics with the global bucket (Fluxer checks global, then route): a request is admitted
 * only when both buckets have room, and a refused request consumes neither. If the global
 * bucket refuses, the answer describes the global bucket (`global = 1`); its retry delay is
 * the later of the two, so a client that waits it out is not refused again by the route.
 *
 * KEYS[1] route bucket, KEYS[2] global bucket.
 * ARGV: routeLimit, routeWindowMs, globalLimit, globalWindowMs (globalLimit 0 = exempt),
 * nowMicros (optional, may be empty): an injected clock (tests), used instead of Redis TIME —
 * Redis expires keys by its own clock, so with an injected one the keys get no expiry (a TTL
 * counted in real time would drop a bucket the injected clock still considers full) — and
 * peek ("1": decide, commit nothing; for budgets spent only by failures, see failures.ts).
 * Returns { allowed 0|1, limit, remaining, resetUnixSeconds, retryAfterMicros, global 0|1,
 * resetAfterMicros } (the last: until the described bucket is fully drained, for Reset-After).
 */
export const GCRA_LUA = `
if redis.replicate_commands then redis.replicate_commands() end
local now = tonumber(ARGV[5])
local injected = now ~= nil
local peek = ARGV[6] == '1'
if not injected then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000000 + tonumber(time[2])
end

local function inspect(key, limit, windowMs)
  local interval = math.floor(windowMs * 1000 / limit)
  local burst = interval * limit
  local tat = tonumber(redis.call('GET', key)) or now
  if tat < now then tat = now end
  local newTat = tat + interval
  local b = { key = key, limit = limit, interval = interval, tat = tat, newTat = newTat }
  b.allowed = newTat - now <= burst
  b.retryAfter = b.allowed and 0 or newTat - now - burst
  b.remaining = b.allowed and math.floor((burst - (newTat - now)) / interval) or 0
  return b
end

local function resetSeconds(tat)
  return math.ceil(tat / 1000000)
end

local function commit(b)
  if peek then return end
  local value = string.format('%.0f', b.newTat)
  if injected then
    redis.call('SET', b.key, value)
  else
    redis.call('SET', b.key, value, 'PX', math.max(1, math.ceil((b.newTat - now) / 1000)))
  end
end

local route = inspect(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]))
local globalLimit = tonumber(ARGV[3])
if globalLimit > 0 then
  local global = inspect(KEYS[2], globalLimit, tonumber(ARGV[4]))
  if not global.allowed then
    local retry = math.max(global.retryAfter, route.retryAfter)
    return { 0, global.limit, 0, resetSeconds(global.tat), retry, 1, global.tat - now }
  end
  if route.allowed then commit(global) end
end
if not route.allowed then
  return { 0, route.limit, 0, resetSeconds(route.tat), route.retryAfter, 0, route.tat - now }
end
commit(route)
return { 1, route.limit, route.remaining, resetSeconds(route.newTat), 0, 0, route.newTat - now }
`;

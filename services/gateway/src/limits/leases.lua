-- The limiter's script when gateways spend limits from leases (leased-limiter.ts explains the
-- invariant). A counter holds what was consumed plus every unspent lease taken from it; beside
-- it a hash ({pbrl}:l:<counter key without its tag>) records each gateway's outstanding lease and when it was granted.
--
-- KEYS: every distinct key named below (counters, their lease hashes, revision keys), all with
-- the hash tag {pbrl}.
-- ARGV[1]: JSON array, per key the ttl in seconds if this call creates it.
-- ARGV[2]: this gateway's id (its field in the lease hashes).
-- ARGV[3]: milliseconds after its grant a lease of another gateway counts as abandoned.
-- ARGV[4]: JSON array of returns, applied first: [counter index, hash index, unspent units].
--          This gateway's record in that hash drops to zero: it holds nothing of it any more.
-- ARGV[5]: JSON array of operations, each
--   1 revision key index, 2-6 counter indexes (minute, project hour, account hour, global
--   hour, quota), 7-11 their lease hash indexes, 12 expected revision (string), 13 events,
--   14 mode ('u' consume, 'c' check, 'r' refund), 15-19 limits (burst, project hourly,
--   account hourly, global hourly, monthly quota), 20 quota seed ('' when unknown),
--   21-25 lease wanted per counter (0: none).
-- ARGV[6]: JSON array of top-ups, applied last: [counter index, hash index, limit, wanted], a new
--          lease of a counter no operation here touches (this gateway's was running out and
--          came back with the returns); never for a counter Redis does not hold.
-- Returns a JSON array of 12 integers per operation: status, which (as limits.lua), the five
-- counters' usage (consumed, not counting anyone's unspent lease) and the five leases granted;
-- then 2 per top-up: the counter's usage and the lease granted.
--
-- A request is refused only if it would not fit beside every lease that may still be spent:
-- another gateway's lease counts as spent while it is live (its holder may be spending it) and
-- as unspent once abandoned (its holder stopped spending it long ago: crashed, or cut off).
local vals = redis.call('MGET', unpack(KEYS))
local ttl = cjson.decode(ARGV[1])
local me = ARGV[2]
local abandonMs = tonumber(ARGV[3])
local t = redis.call('TIME')
local nowMs = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local existed, count, dirty = {}, {}, {}
for i = 1, #KEYS do
  existed[i] = vals[i] ~= false
end
local function get(i)
  local c = count[i]
  if c == nil then
    c = tonumber(vals[i] or '0') or 0
    count[i] = c
  end
  return c
end
local function put(i, v)
  count[i] = v
  dirty[i] = true
end

-- Lease hashes: gateway id -> { units, granted at (ms) }, loaded when first needed.
local leases, leaseDirty, counterOf = {}, {}, {}
local function holders(h)
  local l = leases[h]
  if l == nil then
    l = {}
    local flat = redis.call('HGETALL', KEYS[h])
    local raw = {}
    for k = 1, #flat, 2 do
      raw[flat[k]] = flat[k + 1]
    end
    for field, v in pairs(raw) do
      if string.sub(field, -1) ~= '@' then l[field] = { tonumber(v) or 0, tonumber(raw[field .. '@'] or '0') or 0 } end
    end
    leases[h] = l
  end
  return l
end
local function setHolding(h, units, c)
  counterOf[h] = c
  local l = holders(h)
  l[me] = { units, nowMs }
  leaseDirty[h] = true
end
-- Units of other gateways' leases: all of them, and those abandoned.
local function others(h)
  local all, abandoned = 0, 0
  for id, rec in pairs(holders(h)) do
    if id ~= me then
      all = all + rec[1]
      if nowMs - rec[2] >= abandonMs then abandoned = abandoned + rec[1] end
    end
  end
  return all, abandoned
end

for _, r in ipairs(cjson.decode(ARGV[4])) do
  local ci, hi, units = r[1], r[2], r[3]
  if units > 0 and (existed[ci] or dirty[ci]) then
    local v = get(ci) - units
    put(ci, v > 0 and v or 0)
  end
  local l = holders(hi)
  if l[me] ~= nil then setHolding(hi, 0, ci) end
end

local out = {}
local function usageOf(ci, hi)
  local all = others(hi)
  local mine = holders(hi)[me]
  local v = get(ci) - all - (mine and mine[1] or 0)
  return v > 0 and v or 0
end

local function decide(f)
  local mode = f[14]
  local n = f[13]
  if mode == 'r' then
    -- A refund gives back what a consume took, never below zero, and never creates a counter.
    local amounts = { n, 1, 1, 1, n }
    for k = 1, 5 do
      local i = f[1 + k]
      if existed[i] or dirty[i] then
        local v = get(i) - amounts[k]
        put(i, v > 0 and v or 0)
      end
    end
    return 0, 0
  end
  if vals[f[1]] ~= f[12] then return 1, 0 end
  local qi = f[6]
  if not (existed[qi] or dirty[qi]) then
    local seed = f[20]
    if seed == '' then return 2, 0 end
    put(qi, tonumber(seed))
  end
  local amounts = { n, 1, 1, 1, n }
  -- A request of zero events (a usage read) is never refused.
  if n > 0 then
    for k = 1, 5 do
      local _, abandoned = others(f[6 + k])
      if get(f[1 + k]) - abandoned + amounts[k] > f[14 + k] then
        if k == 5 then return 4, 0 end
        return 3, k
      end
    end
  end
  if mode == 'u' then
    for k = 1, 5 do
      local ci, hi = f[1 + k], f[6 + k]
      local v = get(ci) + amounts[k]
      local grant = math.min(f[20 + k], f[14 + k] - v)
      if grant > 0 then
        v = v + grant
        local mine = holders(hi)[me]
        setHolding(hi, (mine and mine[1] or 0) + grant, ci)
      end
      put(ci, v)
    end
  end
  return 0, 0
end

for _, f in ipairs(cjson.decode(ARGV[5])) do
  local before = {}
  for k = 1, 5 do
    local mine = holders(f[6 + k])[me]
    before[k] = mine and mine[1] or 0
  end
  local status, which = decide(f)
  local o = #out
  out[o + 1] = status
  out[o + 2] = which
  for k = 1, 10 do out[o + 2 + k] = 0 end
  if status == 0 or status == 3 or status == 4 then
    for k = 1, 5 do
      out[o + 2 + k] = usageOf(f[1 + k], f[6 + k])
      local mine = holders(f[6 + k])[me]
      out[o + 7 + k] = (mine and mine[1] or 0) - before[k]
    end
  end
end

for _, u in ipairs(cjson.decode(ARGV[6])) do
  local ci, hi = u[1], u[2]
  local grant = 0
  if existed[ci] or dirty[ci] then
    local v = get(ci)
    grant = math.min(u[4], u[3] - v)
    if grant > 0 then
      put(ci, v + grant)
      local mine = holders(hi)[me]
      setHolding(hi, (mine and mine[1] or 0) + grant, ci)
    else
      grant = 0
    end
  end
  out[#out + 1] = usageOf(ci, hi)
  out[#out + 1] = grant
end

-- Expiry is set only when a key is born; an existing key keeps its ttl.
for i, _ in pairs(dirty) do
  if existed[i] then
    redis.call('SET', KEYS[i], string.format('%d', count[i]), 'KEEPTTL')
  else
    redis.call('SET', KEYS[i], string.format('%d', count[i]), 'EX', ttl[i])
  end
end
for h, _ in pairs(leaseDirty) do
  local rec = leases[h][me]
  if rec[1] > 0 then
    redis.call('HSET', KEYS[h], me, string.format('%d', rec[1]), me .. '@', string.format('%d', rec[2]))
    -- The hash lives as long as its counter.
    if redis.call('TTL', KEYS[h]) < 0 then
      local left = redis.call('TTL', KEYS[counterOf[h]])
      redis.call('EXPIRE', KEYS[h], left > 0 and left or ttl[h])
    end
  else
    redis.call('HDEL', KEYS[h], me, me .. '@')
  end
end
return cjson.encode(out)

-- Decides a micro-batch of limit operations in one atomic call. Each operation is
-- all or nothing: every limit of the request is checked, then all counters move or none.
-- Operations run in arrival order, so two requests in one batch see each other.
--
-- KEYS: every distinct key the operations name. All carry the hash tag {pbrl}, so
--       on Redis Cluster they live in one slot and the script may touch them all.
-- ARGV[1]: JSON array, for each key the ttl in seconds if this call creates it.
-- ARGV[2]: JSON array of the operations, each an array of 15 fields:
--   1 revision key index, 2 minute index, 3 project-hour index, 4 account-hour index,
--   5 global-hour index, 6 quota index, 7 expected revision (string), 8 events in the request,
--   9 mode ('c' check, 'u' consume, 'r' refund), 10 burst limit, 11 project hourly,
--   12 account hourly, 13 global hourly, 14 monthly quota, 15 quota seed ('' when unknown)
--   (Two JSON arguments rather than hundreds: the client's cost per argument was the larger
--   part of a call, and Redis' cjson decodes them in C, numbers as numbers, several times
--   faster than splitting strings in Lua.)
-- Returns a JSON array of 7 integers per operation: status, which, minute, hourProject,
-- hourAccount, hourGlobal, month. status 0 allowed (counters after the increment), 1 stale
-- revision, 2 quota counter needs seeding, 3 rate limited (which: 1 minute, 2 project hour,
-- 3 account hour, 4 global hour), 4 quota exhausted.
--
-- Cost: one MGET, then one SET per counter that changed, however many operations.
local vals = redis.call('MGET', unpack(KEYS))
local existed = {}
local count = {}
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
local dirty = {}
local function put(i, v)
  count[i] = v
  dirty[i] = true
end

local ttl = cjson.decode(ARGV[1])

local out = {}
local function decide(f)
  local ri, mi, hpi, hai, hgi, qi = f[1], f[2], f[3], f[4], f[5], f[6]
  if vals[ri] ~= f[7] then return 1, 0 end
  local n = f[8]
  local mode = f[9]

  if mode == 'r' then
    -- A refund gives back what a consume took, never below zero, and never creates a counter.
    local amounts = { [mi] = n, [hpi] = 1, [hai] = 1, [hgi] = 1, [qi] = n }
    for _, i in ipairs({ mi, hpi, hai, hgi, qi }) do
      if existed[i] or dirty[i] then
        local v = get(i) - amounts[i]
        put(i, v > 0 and v or 0)
      end
    end
    return 0, 0
  end

  if not (existed[qi] or dirty[qi]) then
    local seed = f[15]
    if seed == '' then return 2, 0 end
    put(qi, tonumber(seed))
  end
  local m, hp, ha, hg, q = get(mi), get(hpi), get(hai), get(hgi), get(qi)
  -- A request of zero events (a usage read) is never refused.
  if n > 0 then
    if m + n > f[10] then return 3, 1 end
    if hp + 1 > f[11] then return 3, 2 end
    if ha + 1 > f[12] then return 3, 3 end
    if hg + 1 > f[13] then return 3, 4 end
    if q + n > f[14] then return 4, 0 end
  end
  if mode == 'u' then
    put(mi, m + n)
    put(hpi, hp + 1)
    put(hai, ha + 1)
    put(hgi, hg + 1)
    put(qi, q + n)
  end
  return 0, 0
end

for _, f in ipairs(cjson.decode(ARGV[2])) do
  local status, which = decide(f)
  local o = #out
  out[o + 1] = status
  out[o + 2] = which
  if status == 1 or status == 2 then
    for k = 3, 7 do out[o + k] = 0 end
  else
    out[o + 3] = get(f[2])
    out[o + 4] = get(f[3])
    out[o + 5] = get(f[4])
    out[o + 6] = get(f[5])
    out[o + 7] = get(f[6])
  end
end

-- Expiry is set only when a counter is born; an existing counter keeps its ttl.
for i, _ in pairs(dirty) do
  if existed[i] then
    redis.call('SET', KEYS[i], string.format('%d', count[i]), 'KEEPTTL')
  else
    redis.call('SET', KEYS[i], string.format('%d', count[i]), 'EX', ttl[i])
  end
end
return cjson.encode(out)

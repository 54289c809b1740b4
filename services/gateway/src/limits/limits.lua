-- Decides a micro-batch of limit operations in one atomic call. Each operation is
-- all or nothing: every limit of the request is checked, then all counters move or none.
-- Operations run in arrival order, so two requests in one batch see each other.
--
-- KEYS: every distinct key the operations name. All carry the hash tag {pbrl}, so
--       on Redis Cluster they live in one slot and the script may touch them all.
-- ARGV[1]: for each key, the ttl in seconds if this call creates it, comma-separated.
-- ARGV[2]: the operations, ';'-separated, each 15 comma-separated fields:
--   1 revision key index, 2 minute index, 3 project-hour index, 4 account-hour index,
--   5 global-hour index, 6 quota index, 7 expected revision, 8 events in the request,
--   9 mode ('c' check, 'u' consume, 'r' refund), 10 burst limit, 11 project hourly,
--   12 account hourly, 13 global hourly, 14 monthly quota, 15 quota seed ('' when unknown)
--   (Two packed strings rather than hundreds of arguments: the client's cost per argument
--   was the larger part of a call.)
-- Returns, comma-separated, 7 integers per operation: status, which, minute, hourProject,
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

local ttl = {}
for t in string.gmatch(ARGV[1], '[^,]+') do ttl[#ttl + 1] = t end

local out = {}
local function decide(f)
  local ri, mi, hpi, hai, hgi, qi = tonumber(f[1]), tonumber(f[2]), tonumber(f[3]), tonumber(f[4]), tonumber(f[5]), tonumber(f[6])
  if vals[ri] ~= f[7] then return 1, 0 end
  local n = tonumber(f[8])
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
    if m + n > tonumber(f[10]) then return 3, 1 end
    if hp + 1 > tonumber(f[11]) then return 3, 2 end
    if ha + 1 > tonumber(f[12]) then return 3, 3 end
    if hg + 1 > tonumber(f[13]) then return 3, 4 end
    if q + n > tonumber(f[14]) then return 4, 0 end
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

for op in string.gmatch(ARGV[2], '[^;]+') do
  local f = {}
  -- '' (an unknown seed) is a field too, so split on every comma.
  for v in string.gmatch(op .. ',', '([^,]*),') do f[#f + 1] = v end
  local status, which = decide(f)
  local o = #out
  out[o + 1] = status
  out[o + 2] = which
  if status == 1 or status == 2 then
    for k = 3, 7 do out[o + k] = 0 end
  else
    out[o + 3] = get(tonumber(f[2]))
    out[o + 4] = get(tonumber(f[3]))
    out[o + 5] = get(tonumber(f[4]))
    out[o + 6] = get(tonumber(f[5]))
    out[o + 7] = get(tonumber(f[6]))
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
for k = 1, #out do out[k] = string.format('%d', out[k]) end
return table.concat(out, ',')

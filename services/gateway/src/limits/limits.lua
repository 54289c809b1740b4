-- Checks every limit of one request and increments all of them or none.
-- KEYS: 1 project revision, 2 minute events, 3 hour project requests,
--       4 hour account requests, 5 hour global requests, 6 month events (quota)
-- ARGV: 1 expected revision, 2 events in the request, 3 'consume' | 'check' | 'refund',
--       4 burst limit, 5 project hourly, 6 account hourly, 7 global hourly, 8 monthly quota,
--       9 minute ttl, 10 hour ttl, 11 month ttl, 12 quota seed ('' when unknown)
-- Returns {status, which, minute, hourProject, hourAccount, hourGlobal, month}: status 0 allowed
-- (counters after the increment), 1 stale revision, 2 quota counter needs seeding,
-- 3 rate limited (which: 1 minute, 2 project hour, 3 account hour, 4 global hour), 4 quota exhausted.
local v = redis.call('MGET', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
if v[1] ~= ARGV[1] then return {1, 0, 0, 0, 0, 0, 0} end
local n = tonumber(ARGV[2])
local mode = ARGV[3]

if mode == 'refund' then
  for i = 2, 6 do
    if v[i] then redis.call('DECRBY', KEYS[i], (i == 2 or i == 6) and n or 1) end
  end
  return {0, 0, 0, 0, 0, 0, 0}
end

local q = v[6]
if not q then
  if ARGV[12] == '' then return {2, 0, 0, 0, 0, 0, 0} end
  redis.call('SET', KEYS[6], ARGV[12], 'EX', ARGV[11], 'NX')
  q = redis.call('GET', KEYS[6])
end
q = tonumber(q)
local m = tonumber(v[2] or '0')
local hp = tonumber(v[3] or '0')
local ha = tonumber(v[4] or '0')
local hg = tonumber(v[5] or '0')

-- A request of zero events (a usage read) is never refused.
local r = n > 0 and 1 or 0
if m + n > tonumber(ARGV[4]) and n > 0 then return {3, 1, m, hp, ha, hg, q} end
if hp + r > tonumber(ARGV[5]) then return {3, 2, m, hp, ha, hg, q} end
if ha + r > tonumber(ARGV[6]) then return {3, 3, m, hp, ha, hg, q} end
if hg + r > tonumber(ARGV[7]) then return {3, 4, m, hp, ha, hg, q} end
if q + n > tonumber(ARGV[8]) and n > 0 then return {4, 0, m, hp, ha, hg, q} end
if mode == 'check' then return {0, 0, m, hp, ha, hg, q} end

-- Expiry is set only when a counter is born, so a busy window costs one command per counter.
local function bump(key, by, ttl)
  local value = redis.call('INCRBY', key, by)
  if value == by then redis.call('EXPIRE', key, ttl) end
  return value
end
return {0, 0, bump(KEYS[2], n, ARGV[9]), bump(KEYS[3], 1, ARGV[10]), bump(KEYS[4], 1, ARGV[10]),
        bump(KEYS[5], 1, ARGV[10]), redis.call('INCRBY', KEYS[6], n)}

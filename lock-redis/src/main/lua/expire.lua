-- Assembled in io.github.distlock.redis.LockScripts.EXPIRE; ScriptTextTests checks that it is this text.
local function owns(value, owner) return value == owner or value == owner .. '+' end
local function shared_now()
  local t = redis.call('time')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function shared_kind(value)
  if not value or string.byte(value, 1) ~= 10 then return nil end
  return string.match(value, '^\n(%d+)')
end
local function live_hold(holders, owner, now)
  local lease_end = tonumber(redis.call('zscore', holders, owner))
  return lease_end and lease_end > now
end
local function shared_settle(lock, holders, now)
  redis.call('zremrangebyscore', holders, '-inf', now)
  local last = redis.call('zrange', holders, -1, -1, 'withscores')
  if not last[2] then return false end
  local ttl = tonumber(last[2]) - now
  redis.call('pexpire', lock, ttl)
  redis.call('pexpire', holders, ttl)
  return true
end
local function extend_hold(lock, holders, owner, lease, current)
  if not shared_kind(current) then return false end
  local now = shared_now()
  if not live_hold(holders, owner, now) then return false end
  redis.call('zadd', holders, string.format('%.0f', now + tonumber(lease)), owner)
  shared_settle(lock, holders, now)
  return true
end
local renewed, bit = 0, 1
for i = 1, #KEYS, 2 do
  local current = redis.call('get', KEYS[i])
  if owns(current, ARGV[i]) then
    redis.call('pexpire', KEYS[i], ARGV[i + 1])
    renewed = renewed + bit
  elseif extend_hold(KEYS[i], KEYS[i + 1], ARGV[i], ARGV[i + 1], current) then
    renewed = renewed + bit
  end
  bit = bit * 2
end
return renewed

-- Assembled in io.github.distlock.redis.SharedScripts.ACQUIRE_SHARED_SHARDED; ScriptTextTests checks that it is this text.
local function owns(value, owner) return value == owner or value == owner .. '+' end
local function listed(list, line)
  return list and string.find('\n' .. list .. '\n', '\n' .. line .. '\n', 1, true) ~= nil
end
local function released(receipt, owner) return listed(redis.call('get', receipt), owner) end
local function ended(receipt, owner)
  local list = redis.call('get', receipt)
  return listed(list, owner) or listed(list, '~' .. owner)
end
local function note_ended(receipt, ttl, line)
  local owner = string.sub(line, 1, 1) == '~' and string.sub(line, 2) or line
  local list = line
  local count = 1
  local old = redis.call('get', receipt)
  if old then
    for earlier in string.gmatch(old, '[^\n]+') do
      if count >= 16 then break end
      if earlier ~= owner and earlier ~= '~' .. owner then
        list = list .. '\n' .. earlier
        count = count + 1
      end
    end
  end
  redis.call('set', receipt, list, 'px', ttl)
end
local arrived = redis.call('time')
if tonumber(arrived[1]) * 1000 + math.floor(tonumber(arrived[2]) / 1000) > tonumber(ARGV[7]) then
  return -9007199254740992
end
if ended(KEYS[5], ARGV[1]) then
  local ttl = redis.call('pttl', KEYS[1])
  if ttl < 0 then ttl = 0 end
  return -1 - ttl
end
local function announce(channel, message)
  local sent = redis.pcall('spublish', channel, message)
  if type(sent) == 'table' and sent.err then redis.call('publish', channel, message) end
end
local function now_ms()
  local t = redis.call('time')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function deadline_of(entry)
  if not entry then return nil end
  return tonumber(string.match(entry, '^[^:]*'))
end
local function live_head(queue, waiting)
  if redis.call('exists', queue) == 0 then return nil end
  local now = nil
  while true do
    local head = redis.call('lindex', queue, 0)
    if not head then return nil end
    now = now or now_ms()
    local entry = redis.call('hget', waiting, head)
    local deadline = deadline_of(entry)
    if deadline and deadline > now then return head, entry end
    redis.call('lpop', queue)
    if entry then redis.call('hdel', waiting, head) end
  end
end
local function grant(lock, queue, waiting, head, entry, grant_lease, channel, fence, retention)
  redis.call('lpop', queue)
  redis.call('hdel', waiting, head)
  local lease = string.match(entry, ':(%d+)$') or grant_lease
  local more = live_head(queue, waiting) ~= nil
  redis.call('set', lock, more and (head .. '+') or head, 'px', lease)
  local t = redis.call('time')
  local token = tonumber(t[1]) * 1000000 + tonumber(t[2])
  local last = tonumber(redis.call('get', fence))
  if last and last >= token then token = last + 1 end
  token = string.format('%.0f', token)
  redis.call('set', fence, token, 'px', retention)
  announce(channel, lock .. '\n' .. head .. '\n' .. token)
end
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
local function refuse()
  local value = redis.call('get', KEYS[1])
  if not value then return -1 end
  if string.sub(value, -1) ~= '+' then redis.call('append', KEYS[1], '+') end
  local ttl = redis.call('pttl', KEYS[1])
  if ttl < 0 then ttl = tonumber(ARGV[2]) end
  return -1 - ttl
end
local now = shared_now()
local current = redis.call('get', KEYS[1])
local kind = shared_kind(current)
if current and not kind then return refuse() end
if kind then
  redis.call('zremrangebyscore', KEYS[6], '-inf', now)
  if kind ~= ARGV[4] then
    if redis.call('exists', KEYS[6]) == 1 then return 0 end
    redis.call('del', KEYS[1])
    current = nil
  end
end
local lease_end = now + tonumber(ARGV[2])
local mine = tonumber(redis.call('zscore', KEYS[6], ARGV[1]))
if not mine then
  local head, entry = live_head(KEYS[3], KEYS[4])
  if head then
    if not current then
      grant(KEYS[1], KEYS[3], KEYS[4], head, entry, ARGV[5], ARGV[6], KEYS[2], ARGV[3])
    end
    return refuse()
  end
  if ARGV[4] ~= '0' and redis.call('zcard', KEYS[6]) >= tonumber(ARGV[4]) then return refuse() end
  if not current then redis.call('set', KEYS[1], '\n' .. ARGV[4], 'px', ARGV[2]) end
end
if not mine or mine < lease_end then
  redis.call('zadd', KEYS[6], string.format('%.0f', lease_end), ARGV[1])
end
shared_settle(KEYS[1], KEYS[6], now)
local now = redis.call('time')
local token = tonumber(now[1]) * 1000000 + tonumber(now[2])
local last = tonumber(redis.call('get', KEYS[2]))
if last and last >= token then token = last + 1 end
redis.call('set', KEYS[2], string.format('%.0f', token), 'px', ARGV[3])
return token

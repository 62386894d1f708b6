-- Assembled in io.github.distlock.redis.LockScripts.RELEASE; ScriptTextTests checks that it is this text.
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
local function announce(channel, message) redis.call('publish', channel, message) end
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
local current = redis.call('get', KEYS[1])
if owns(current, ARGV[1]) then
  note_ended(KEYS[2], ARGV[3], ARGV[1])
  local head, entry = nil, nil
  if current ~= ARGV[1] then
    redis.call('hdel', KEYS[3 + 1], ARGV[1])
    head, entry = live_head(KEYS[3], KEYS[3 + 1])
  end
  if head then
    grant(KEYS[1], KEYS[3], KEYS[3 + 1], head, entry, ARGV[4], ARGV[2], KEYS[5],
      ARGV[6])
  else
    redis.call('del', KEYS[1])
    if current ~= ARGV[1] and ARGV[5] ~= '1' then announce(ARGV[2], KEYS[1]) end
  end
  return 1
end
if KEYS[6] and shared_kind(current) then
  local now = shared_now()
  if live_hold(KEYS[6], ARGV[1], now) then
    redis.call('zrem', KEYS[6], ARGV[1])
    note_ended(KEYS[2], ARGV[3], ARGV[1])
    local contended = string.sub(current, -1) == '+'
    if shared_settle(KEYS[1], KEYS[6], now) then
      if contended and shared_kind(current) ~= '0' and ARGV[5] ~= '1' then announce(ARGV[2], KEYS[1]) end
      return 1
    end
    local head, entry = nil, nil
    if contended then head, entry = live_head(KEYS[3], KEYS[4]) end
    if head then
      grant(KEYS[1], KEYS[3], KEYS[4], head, entry, ARGV[4], ARGV[2], KEYS[5], ARGV[6])
      if string.sub(redis.call('get', KEYS[1]), -1) ~= '+' then redis.call('append', KEYS[1], '+') end
    else
      redis.call('del', KEYS[1])
      if contended and ARGV[5] ~= '1' then announce(ARGV[2], KEYS[1]) end
    end
    return 1
  end
end
if redis.call('exists', KEYS[4]) == 1 then redis.call('hdel', KEYS[4], ARGV[1]) end
if released(KEYS[2], ARGV[1]) then return 1 end
note_ended(KEYS[2], ARGV[3], '~' .. ARGV[1])
return 0

-- Assembled in io.github.distlock.redis.QueueScripts.ACQUIRE_QUEUED; ScriptTextTests checks that it is this text.
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
if tonumber(arrived[1]) * 1000 + math.floor(tonumber(arrived[2]) / 1000) > tonumber(ARGV[6]) then
  return -9007199254740992
end
if ended(KEYS[5], ARGV[1]) then
  local ttl = redis.call('pttl', KEYS[1])
  if ttl < 0 then ttl = 0 end
  return -1 - ttl
end
local function now_ms()
  local t = redis.call('time')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function deadline_of(entry)
  if not entry then return nil end
  return tonumber(string.match(entry, '^[^:]*'))
end
if redis.call('set', KEYS[1], ARGV[1], 'nx', 'px', ARGV[2]) then
  redis.call('hdel', KEYS[4], ARGV[1])
  if redis.call('exists', KEYS[3]) == 1 then redis.call('append', KEYS[1], '+') end
  if ARGV[5] ~= '1' then return 0 end
local now = redis.call('time')
local token = tonumber(now[1]) * 1000000 + tonumber(now[2])
local last = tonumber(redis.call('get', KEYS[2]))
if last and last >= token then token = last + 1 end
redis.call('set', KEYS[2], string.format('%.0f', token), 'px', ARGV[3])
  return token
end
local current = redis.call('get', KEYS[1])
if owns(current, ARGV[1]) then
  if redis.call('pttl', KEYS[1]) < tonumber(ARGV[2]) then redis.call('pexpire', KEYS[1], ARGV[2]) end
  redis.call('hdel', KEYS[4], ARGV[1])
local now = redis.call('time')
local token = tonumber(now[1]) * 1000000 + tonumber(now[2])
local last = tonumber(redis.call('get', KEYS[2]))
if last and last >= token then token = last + 1 end
redis.call('set', KEYS[2], string.format('%.0f', token), 'px', ARGV[3])
  return token
end
local wait = tonumber(ARGV[4])
local now = now_ms()
local deadline = deadline_of(redis.call('hget', KEYS[4], ARGV[1]))
if not deadline or deadline <= now then redis.call('rpush', KEYS[3], ARGV[1]) end
redis.call('hset', KEYS[4], ARGV[1], string.format('%.0f', now + wait) .. ':' .. ARGV[2])
for i = 3, 4 do
  if redis.call('pttl', KEYS[i]) < wait then redis.call('pexpire', KEYS[i], wait) end
end
if string.sub(current, -1) ~= '+' then redis.call('append', KEYS[1], '+') end
local ttl = redis.call('pttl', KEYS[1])
if ttl < 0 then ttl = tonumber(ARGV[2]) end
return -1 - ttl

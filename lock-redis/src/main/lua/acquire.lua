-- Assembled in io.github.distlock.redis.LockScripts.ACQUIRE; ScriptTextTests checks that it is this text.
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
if tonumber(arrived[1]) * 1000 + math.floor(tonumber(arrived[2]) / 1000) > tonumber(ARGV[5]) then
  return -9007199254740992
end
if ended(KEYS[3], ARGV[1]) then
  local ttl = redis.call('pttl', KEYS[1])
  if ttl < 0 then ttl = 0 end
  return -1 - ttl
end
if redis.call('set', KEYS[1], ARGV[1], 'nx', 'px', ARGV[2]) then
  if ARGV[4] ~= '1' then return 0 end
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
local now = redis.call('time')
local token = tonumber(now[1]) * 1000000 + tonumber(now[2])
local last = tonumber(redis.call('get', KEYS[2]))
if last and last >= token then token = last + 1 end
redis.call('set', KEYS[2], string.format('%.0f', token), 'px', ARGV[3])
  return token
end
if current and string.sub(current, -1) ~= '+' then redis.call('append', KEYS[1], '+') end
local ttl = redis.call('pttl', KEYS[1])
if ttl < 0 then ttl = tonumber(ARGV[2]) end
return -1 - ttl

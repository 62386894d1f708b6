-- Assembled in io.github.distlock.redis.LockScripts.ISSUE_FENCING_TOKEN; ScriptTextTests checks that it is this text.
local function owns(value, owner) return value == owner or value == owner .. '+' end
if not owns(redis.call('get', KEYS[1]), ARGV[1]) then return 0 end
local now = redis.call('time')
local token = tonumber(now[1]) * 1000000 + tonumber(now[2])
local last = tonumber(redis.call('get', KEYS[2]))
if last and last >= token then token = last + 1 end
redis.call('set', KEYS[2], string.format('%.0f', token), 'px', ARGV[2])
return token

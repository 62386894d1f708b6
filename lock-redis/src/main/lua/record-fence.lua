-- Assembled in io.github.distlock.redis.RedisQuorumFenceRecords.RECORD_FENCE; ScriptTextTests checks that it is this text.
local now = redis.call('time')
local micros = tonumber(now[1]) * 1000000 + tonumber(now[2])
local since = tonumber(redis.call('get', KEYS[3]))
if not since then
  since = micros
  redis.call('set', KEYS[3], string.format('%.0f', since))
end
local trusted = 0
if micros - since >= tonumber(ARGV[3]) then trusted = 1 end
local proposal = tonumber(ARGV[1])
local old = tonumber(redis.call('get', KEYS[1])) or 0
if proposal > old then
  redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
else
  redis.call('pexpire', KEYS[1], ARGV[2])
end
local fence = tonumber(redis.call('get', KEYS[2]))
if not fence or fence < proposal then redis.call('set', KEYS[2], ARGV[1], 'px', ARGV[2]) end
return {string.format('%.0f', old), trusted}

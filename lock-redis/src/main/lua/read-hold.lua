-- Assembled in io.github.distlock.redis.RedisLockCommands.READ_HOLD; ScriptTextTests checks that it is this text.
return {redis.call('GET', KEYS[1]) or '', redis.call('PTTL', KEYS[1])}

package io.github.distlock.redis;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts behind every lock operation. Each is atomic on the Redis server; Spring Data
 * Redis runs them by {@code EVALSHA} and falls back to {@code EVAL} after a {@code SCRIPT FLUSH}.
 * <p>
 * Lock key value: the owner token, with a trailing {@code +} once somebody failed to acquire it
 * (the "contended" flag). Only a release of a flagged lock publishes on the release channel, so
 * uncontended locks cost no pub/sub traffic. {@code APPEND} keeps the key's TTL.
 * <p>
 * Fencing key value: the last token handed out for the lock. The next token is
 * {@code max(server time in microseconds, last + 1)}: strictly increasing while the fencing key
 * lives, and still increasing after it expired (it outlives every lease by the retention), because
 * the server clock has moved on by more than the number of acquisitions in between.
 */
final class LockScripts {

	/** Sets KEYS[2] to the next fencing token and leaves it in local {@code token}. */
	private static final String NEXT_FENCING_TOKEN = """
			local now = redis.call('time')
			local token = tonumber(now[1]) * 1000000 + tonumber(now[2])
			local last = tonumber(redis.call('get', KEYS[2]))
			if last and last >= token then token = last + 1 end
			redis.call('set', KEYS[2], string.format('%.0f', token), 'px', ARGV[3])
			""";

	/**
	 * KEYS: lock, fence. ARGV: owner, lease ms, fence retention ms. Returns the fencing token (&gt; 0)
	 * when acquired; otherwise {@code -1 - remaining ms} of the current holder's lease, after
	 * flagging the lock as contended.
	 * <p>
	 * Owner tokens are fresh per attempt, so finding our own token means this is a replay of the
	 * same acquire (Lettuce re-sends unanswered commands after a reconnect): it counts as acquired,
	 * with a new fencing token, instead of leaving a lock nobody knows it holds until its lease ends.
	 */
	static final RedisScript<Long> ACQUIRE = RedisScript.of("""
			if redis.call('set', KEYS[1], ARGV[1], 'nx', 'px', ARGV[2]) then
			""" + NEXT_FENCING_TOKEN + """
			  return token
			end
			local current = redis.call('get', KEYS[1])
			if current == ARGV[1] or current == ARGV[1] .. '+' then
			""" + NEXT_FENCING_TOKEN + """
			  return token
			end
			if current and string.sub(current, -1) ~= '+' then redis.call('append', KEYS[1], '+') end
			local ttl = redis.call('pttl', KEYS[1])
			if ttl < 0 then ttl = tonumber(ARGV[2]) end
			return -1 - ttl
			""", Long.class);

	/**
	 * KEYS: lock. ARGV: owner, release channel. Deletes the lock if owned; publishes the key when it
	 * was contended. Returns 1 if released, 0 if not owned (expired or taken).
	 */
	static final RedisScript<Long> RELEASE = RedisScript.of("""
			local current = redis.call('get', KEYS[1])
			if current == ARGV[1] then
			  redis.call('del', KEYS[1])
			  return 1
			end
			if current == ARGV[1] .. '+' then
			  redis.call('del', KEYS[1])
			  redis.call('publish', ARGV[2], KEYS[1])
			  return 1
			end
			return 0
			""", Long.class);

	/**
	 * KEYS: lock, fence. ARGV: owner, new owner, fence retention ms, lease ms of the new owner,
	 * whether the lock may stay local although contended from outside ("1"/"0"), release channel.
	 * Hands the lock to a waiter of this instance without freeing it in between. Returns the new
	 * fencing token (&gt; 0) when handed over; -1 when it was released instead (flagged and not
	 * allowed to stay, so outside waiters get their turn); 0 if not owned. A replay of a hand-over
	 * that was applied (the new owner's token is in place) answers as the hand-over did.
	 */
	static final RedisScript<Long> HAND_OVER = RedisScript.of("""
			local current = redis.call('get', KEYS[1])
			if current == ARGV[2] or current == ARGV[2] .. '+' then
			""" + NEXT_FENCING_TOKEN + """
			  return token
			end
			local contended = current == ARGV[1] .. '+'
			if current ~= ARGV[1] and not contended then return 0 end
			if contended and ARGV[5] == '0' then
			  redis.call('del', KEYS[1])
			  redis.call('publish', ARGV[6], KEYS[1])
			  return -1
			end
			redis.call('set', KEYS[1], contended and (ARGV[2] .. '+') or ARGV[2], 'px', ARGV[4])
			""" + NEXT_FENCING_TOKEN + """
			return token
			""", Long.class);

	/**
	 * KEYS: lock. ARGV: owner, lease ms. Resets the lease if owned. Returns 1 if extended, 0 if not
	 * owned. Used for renewal, {@code extend} and to leave a lock in place for its minimum hold time.
	 */
	static final RedisScript<Long> EXPIRE = RedisScript.of("""
			local current = redis.call('get', KEYS[1])
			if current == ARGV[1] or current == ARGV[1] .. '+' then
			  redis.call('pexpire', KEYS[1], ARGV[2])
			  return 1
			end
			return 0
			""", Long.class);

	private LockScripts() {
	}

}

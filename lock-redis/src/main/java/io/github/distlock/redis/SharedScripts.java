package io.github.distlock.redis;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts of shared holds: READ holds and permits of a semaphore (see
 * {@link io.github.distlock.store.LockStore#acquireShared}).
 * <p>
 * A key held shared has the value {@code \n<permits>} ({@code 0} for READ; owner tokens
 * never contain a line break), with the contended flag {@code +} appended as for a lock,
 * so every exclusive script finds it held by another owner and waits, queues and flags as
 * usual. Its holds live in {@code <key>:holders}, a sorted set owner token &rarr; end of
 * its lease (server time in ms); both keys expire with the latest lease end, so a key
 * whose holders all died frees itself, and a hold whose lease ended stops counting (it is
 * dropped by the next script that looks). Acquiring, renewing and releasing one hold cost
 * {@code O(log n)} in the number of holders ({@code ZADD}, {@code ZREM}, the latest end
 * by {@code ZRANGE -1 -1}), never a scan of them. Release and renewal of a shared hold
 * are the lock's own scripts ({@link LockScripts#RELEASE}, {@link LockScripts#EXPIRE}),
 * which call {@link #RELEASE_HOLD} and {@code extend_hold} ({@link #EXTEND_HOLD}) for an
 * owner that is not the lock's holder; the release of the last hold frees the key as a
 * lock's release does, granting it to the head of the queue.
 */
final class SharedScripts {

	/**
	 * The functions of shared holds: {@code shared_now} (server time in ms),
	 * {@code shared_kind} (the permits of a key's value held shared, as text, or
	 * {@code nil}), {@code live_hold} (whether an owner's hold has not ended) and
	 * {@code shared_settle}, which drops the holds whose lease ended and sets both keys
	 * to expire with the latest remaining one, answering whether one is left.
	 */
	static final String FUNCTIONS = """
			local function shared_now()
			  local t = redis.call('time')
			  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
			end
			local function shared_kind(value)
			  if not value or string.byte(value, 1) ~= 10 then return nil end
			  return string.match(value, '^\\n(%d+)')
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
			""";

	/**
	 * For {@link LockScripts#EXPIRE}: {@code extend_hold(lock, holders, owner, lease,
	 * current)} resets the lease of the owner's shared hold of a key whose value is
	 * {@code current} if it has not ended, answering whether it did.
	 */
	static final String EXTEND_HOLD = """
			local function extend_hold(lock, holders, owner, lease, current)
			  if not shared_kind(current) then return false end
			  local now = shared_now()
			  if not live_hold(holders, owner, now) then return false end
			  redis.call('zadd', holders, string.format('%.0f', now + tonumber(lease)), owner)
			  shared_settle(lock, holders, now)
			  return true
			end
			""";

	/**
	 * In {@link LockScripts#RELEASE} (KEYS: lock, receipt, queue, waiting, fence,
	 * holders; ARGV: owner, channel, receipt ttl ms, grant lease ms, "1" to withdraw,
	 * fence retention ms), for an owner that is not the lock's holder: removes its shared
	 * hold if its lease has not ended, notes the owner's release in the receipt and
	 * answers 1. A permit released while others are held announces a release of a
	 * contended key (a permit came free; a READ hold frees nothing while others remain).
	 * The last hold frees the key: granted to the live head of the queue when contended
	 * (flagged, so that the readers refused meanwhile hear its release), or deleted and
	 * its release announced.
	 */
	static final String RELEASE_HOLD = """
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
			""";

	/**
	 * KEYS: lock, fence, queue, waiting, receipt, holders. ARGV: owner, lease ms, fence
	 * retention ms, permits (0 for READ), grant lease ms, release channel,
	 * {@code notAfter} (see {@link LockScripts#refuseLate}). Adds the shared hold of the
	 * owner and returns the next fencing token (&gt; 0), or refuses with
	 * {@code -1 - remaining ms} of the key's lease, flagging it contended: while it is
	 * held exclusively, while a live entry of its queue waits (a free key is then granted
	 * to that head on the way), or when all permits are held. A replay (the owner holds)
	 * keeps at least the lease asked for and answers a new token; an owner whose part
	 * ended (a late copy) is refused and changes nothing, as is an attempt applied after
	 * {@code notAfter} ({@link LockScripts#EXPIRED_IN_TRANSIT}). Returns 0, changing
	 * nothing, when the key is held shared with another number of permits.
	 */
	static final RedisScript<Long> ACQUIRE_SHARED = acquireShared(false);

	/**
	 * {@link #ACQUIRE_SHARED} on a Redis Cluster: ARGV[6] is the lock's shard channel.
	 */
	static final RedisScript<Long> ACQUIRE_SHARED_SHARDED = acquireShared(true);

	private static RedisScript<Long> acquireShared(boolean sharded) {
		return RedisScript.of(LockScripts.OWNS + LockScripts.RECEIPT + LockScripts.refuseLate(7)
				+ LockScripts.refuseEnded("KEYS[5]") + QueueScripts.functions(sharded) + FUNCTIONS
				+ """
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
						  if not current then redis.call('set', KEYS[1], '\\n' .. ARGV[4], 'px', ARGV[2]) end
						end
						if not mine or mine < lease_end then
						  redis.call('zadd', KEYS[6], string.format('%.0f', lease_end), ARGV[1])
						end
						shared_settle(KEYS[1], KEYS[6], now)
						"""
				+ LockScripts.NEXT_FENCING_TOKEN + """
						return token
						""", Long.class);
	}

	private SharedScripts() {
	}

}

package io.github.distlock.redis;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts and functions of a lock's queue of waiters, and of the grants that
 * releases make to its head (see {@link LockScripts} for the lock, fence and receipt
 * keys, and for the release and hand-over scripts that grant).
 * <p>
 * Fair queue ({@code <key>:queue}, a list of owner tokens in arrival order) and its
 * entries ({@code <key>:waiting}, a hash owner token &rarr; {@code <deadline>:<lease>}:
 * the server time in ms until which the entry lives, and the lease in ms its owner asked
 * for): written only by {@link #ACQUIRE_FAIR} for a fair waiter that was refused, and by
 * {@link #ACQUIRE_QUEUED} for the local head waiter of an instance (default mode) that
 * was refused, both keys expiring with the latest deadline. An entry whose deadline has
 * passed, or that was withdrawn (its hash field deleted), is dead and dropped when it
 * reaches the head. A release of a contended lock whose queue has a live head
 * <em>grants</em> the lock to it instead of freeing it: the lock key is set to the head's
 * owner token (flagged again if more entries are queued) with the lease its entry
 * records, so that the granted waiter holds the lock as long as one that acquired it
 * itself (an entry written by a client before the lease was recorded, a bare deadline,
 * gets the short grant lease its client confirms; clients of that version drop the
 * entries of this one as dead, so they never grant a lease they would not confirm), the
 * next fencing token is taken for it from the fencing key as for any acquisition, and the
 * grant is announced as {@code <key>\n<owner>\n<fencing token>} (a key never contains a
 * control character, an owner token is hexadecimal), so that the granted waiter holds the
 * lock without another round trip. (Clients before the token was announced sent
 * {@code <key>\n<owner>}; their waiters claim the grant.) Releases of locks that were not
 * contended run no queue command; the others check with {@code EXISTS} first, so that
 * locks nobody waited for run only the commands they ran before queues existed.
 */
final class QueueScripts {

	/**
	 * The queue functions of fair locks: {@code live_head} drops dead entries from the
	 * head of the queue and answers the first live one and its entry (or {@code nil});
	 * {@code grant} gives the lock to that head with the lease its entry records (or the
	 * grant lease, for an entry without one) and the next fencing token (the fencing
	 * key's retention passed in ms), and announces both.
	 */
	static String functions(boolean sharded) {
		String announce = sharded ? """
				local function announce(channel, message)
				  local sent = redis.pcall('spublish', channel, message)
				  if type(sent) == 'table' and sent.err then redis.call('publish', channel, message) end
				end
				""" : """
				local function announce(channel, message) redis.call('publish', channel, message) end
				""";
		return announce + """
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
				  announce(channel, lock .. '\\n' .. head .. '\\n' .. token)
				end
				""";
	}

	/**
	 * Queues the owner ARGV[1] at the end of the queue KEYS[3] (or lets it keep its place
	 * there) with the deadline now + {@code wait} ms and its lease ARGV[2] ms in KEYS[4],
	 * both keys living at least that long. Needs {@code now_ms}, {@code deadline_of} and
	 * the local {@code wait}.
	 */
	private static final String ENQUEUE_OWNER = """
			local now = now_ms()
			local deadline = deadline_of(redis.call('hget', KEYS[4], ARGV[1]))
			if not deadline or deadline <= now then redis.call('rpush', KEYS[3], ARGV[1]) end
			redis.call('hset', KEYS[4], ARGV[1], string.format('%.0f', now + wait) .. ':' .. ARGV[2])
			for i = 3, 4 do
			  if redis.call('pttl', KEYS[i]) < wait then redis.call('pexpire', KEYS[i], wait) end
			end
			""";

	/**
	 * Refuses the acquisition of the lock KEYS[1] held by another owner (its value in the
	 * local {@code current}): flags it contended and returns {@code -1 - remaining ms} of
	 * the holder's lease (ARGV[2] for a key without one).
	 */
	private static final String REFUSE = """
			if string.sub(current, -1) ~= '+' then redis.call('append', KEYS[1], '+') end
			local ttl = redis.call('pttl', KEYS[1])
			if ttl < 0 then ttl = tonumber(ARGV[2]) end
			return -1 - ttl
			""";

	/**
	 * KEYS: lock, fence, queue, waiting, receipt. ARGV: owner, lease ms, fence retention
	 * ms, wait ms (&gt; 0), "1" to issue the token of a fresh acquisition now (else it
	 * answers 0: issued on read), {@code notAfter} (see {@link LockScripts#refuseLate}).
	 * {@link LockScripts#ACQUIRE} for the local head waiter of an instance that waits on
	 * (default, unfair mode): a free lock is taken at once whoever is queued (its queue
	 * entry of an earlier attempt, if any, withdrawn, and the lock flagged contended
	 * while others are queued, so that its release grants it on), a lock granted to the
	 * owner is claimed as {@link LockScripts#ACQUIRE} claims it; a lock held by another
	 * owner is flagged contended and the owner queued at the end of the fair queue for
	 * ARGV[4] ms (keeping its place if it is queued), so that the holder's release grants
	 * it the lock, with the lease asked for. An owner whose part in the lock ended (a
	 * late copy) is refused and changes nothing. Returns as {@link LockScripts#ACQUIRE}
	 * does ({@link LockScripts#EXPIRED_IN_TRANSIT} too).
	 */
	static final RedisScript<Long> ACQUIRE_QUEUED = RedisScript.of(LockScripts.OWNS + LockScripts.RECEIPT
			+ LockScripts.refuseLate(6) + LockScripts.refuseEnded("KEYS[5]") + """
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
					""" + LockScripts.tokenOnReadUnless(5) + LockScripts.NEXT_FENCING_TOKEN
			+ """
					  return token
					end
					local current = redis.call('get', KEYS[1])
					if owns(current, ARGV[1]) then
					  if redis.call('pttl', KEYS[1]) < tonumber(ARGV[2]) then redis.call('pexpire', KEYS[1], ARGV[2]) end
					  redis.call('hdel', KEYS[4], ARGV[1])
					"""
			+ LockScripts.NEXT_FENCING_TOKEN + """
					  return token
					end
					local wait = tonumber(ARGV[4])
					""" + ENQUEUE_OWNER + REFUSE, Long.class);

	/**
	 * KEYS: lock, fence, queue, waiting, receipt. ARGV: owner, lease ms, fence retention
	 * ms, wait ms (life of the queue entry, 0 for none), grant lease ms, release channel,
	 * {@code notAfter} (see {@link LockScripts#refuseLate}). Acquires the lock first
	 * come, first served: returns a fencing token (&gt; 0) when the lock was granted to
	 * the owner (its lease is reset to ARGV[2]; also a replay), or when it is free and
	 * the owner is the live head of the queue or nobody is queued. Otherwise queues the
	 * owner (keeping its place if it is queued) with the lease it asks for, flags the
	 * lock contended and returns {@code -1 - remaining ms} of the holder's lease; a free
	 * lock with a live head that is somebody else is granted to that head first. An owner
	 * whose part in the lock ended (a late copy) is refused and changes nothing, as does
	 * an attempt applied after {@code notAfter} ({@link LockScripts#EXPIRED_IN_TRANSIT}).
	 */
	static final RedisScript<Long> ACQUIRE_FAIR = acquireFair(false);

	/**
	 * {@link #ACQUIRE_FAIR} on a Redis Cluster: ARGV[6] is the lock's shard channel.
	 */
	static final RedisScript<Long> ACQUIRE_FAIR_SHARDED = acquireFair(true);

	private static RedisScript<Long> acquireFair(boolean sharded) {
		return RedisScript.of(LockScripts.OWNS + LockScripts.RECEIPT + LockScripts.refuseLate(7)
				+ LockScripts.refuseEnded("KEYS[5]") + functions(sharded)
				+ """
						local current = redis.call('get', KEYS[1])
						if owns(current, ARGV[1]) then
						  if redis.call('pttl', KEYS[1]) < tonumber(ARGV[2]) then redis.call('pexpire', KEYS[1], ARGV[2]) end
						  redis.call('hdel', KEYS[4], ARGV[1])
						"""
				+ LockScripts.NEXT_FENCING_TOKEN + """
						  return token
						end
						if not current then
						  local head, entry = live_head(KEYS[3], KEYS[4])
						  if not head or head == ARGV[1] then
						    if head then
						      redis.call('lpop', KEYS[3])
						      redis.call('hdel', KEYS[4], head)
						    end
						    local more = live_head(KEYS[3], KEYS[4]) ~= nil
						    redis.call('set', KEYS[1], more and (ARGV[1] .. '+') or ARGV[1], 'px', ARGV[2])
						""" + LockScripts.NEXT_FENCING_TOKEN + """
						    return token
						  end
						  grant(KEYS[1], KEYS[3], KEYS[4], head, entry, ARGV[5], ARGV[6], KEYS[2], ARGV[3])
						end
						local wait = tonumber(ARGV[4])
						if wait > 0 then
						""" + ENQUEUE_OWNER + """
						end
						current = redis.call('get', KEYS[1])
						""" + REFUSE, Long.class);
	}

	private QueueScripts() {
	}

}

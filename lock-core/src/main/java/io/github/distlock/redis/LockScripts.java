package io.github.distlock.redis;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts behind every lock operation. Each is atomic on the Redis server;
 * {@link LockScriptCallback} runs them by {@code EVALSHA} and falls back to {@code EVAL}
 * after a {@code SCRIPT FLUSH}.
 * <p>
 * Lock key value: the owner token, with a trailing {@code +} once somebody failed to
 * acquire it (the "contended" flag). Only a release of a flagged lock publishes on the
 * release channel, so uncontended locks cost no pub/sub traffic. {@code APPEND} keeps the
 * key's TTL.
 * <p>
 * Fencing key value: the last token handed out for the lock, kept for the fencing
 * retention after the last acquisition (not after the last lease: a lock renewed for
 * longer than the retention outlives its fencing key). The next token is
 * {@code max(server time in microseconds, last + 1)}: strictly increasing while the
 * fencing key lives, and still increasing after it expired, because the server clock has
 * moved on by more than the number of acquisitions in between (unless it stepped back by
 * more than the retention).
 * <p>
 * Release receipt value: the owner token of the last release that freed the lock, kept
 * for the fencing retention after that release. Lettuce re-sends a command that was
 * written but not answered when it reconnects; a replayed release or hand-over then finds
 * the lock freed (or already someone else's) and, without the receipt, could not tell
 * that from a lost lock. One receipt per lock key: a later release overwrites it, so a
 * replay is recognised unless another owner released the same lock between the first run
 * and the replay.
 * <p>
 * Fair queue ({@code <key>:queue}, a list of owner tokens in arrival order) and its
 * deadlines ({@code <key>:waiting}, a hash owner token &rarr; server time in ms until
 * which the entry lives): written only by {@link #ACQUIRE_FAIR} for a fair waiter that
 * was refused, and by {@link #ACQUIRE_QUEUED} for the local head waiter of an instance
 * (default mode) that was refused, both keys expiring with the latest deadline. An entry
 * whose deadline has passed, or that was withdrawn (its hash field deleted), is dead and
 * dropped when it reaches the head. A release of a contended lock whose queue has a live
 * head <em>grants</em> the lock to it instead of freeing it: the lock key is set to the
 * head's owner token (flagged again if more entries are queued) with the grant lease, the
 * next fencing token is taken for it from the fencing key as for any acquisition, and the
 * grant is announced as {@code <key>\n<owner>\n<fencing token>} (a key never contains a
 * control character, an owner token is hexadecimal), so that the granted waiter holds the
 * lock without another round trip. (Clients before the token was announced sent
 * {@code <key>\n<owner>}; their waiters claim the grant.) Releases of locks that were not
 * contended run no queue command; the others check with {@code EXISTS} first, so that
 * locks nobody waited for run only the commands they ran before queues existed.
 * <p>
 * The scripts call {@code TIME} and then write, which needs effects replication: Redis 5
 * or later (the default from 5 on; Redis 3.2 and 4 would refuse the writes).
 */
final class LockScripts {

	/**
	 * The owner check, written once and defined at the start of every script that needs
	 * it: a lock key holds its owner token, or the token with the contended flag
	 * appended.
	 */
	private static final String OWNS = """
			local function owns(value, owner) return value == owner or value == owner .. '+' end
			""";

	/**
	 * The queue functions of fair locks: {@code live_head} drops dead entries from the
	 * head of the queue and answers the first live one (or {@code nil}); {@code grant}
	 * gives the lock to that head with the grant lease and the next fencing token (the
	 * fencing key's retention passed in ms), and announces both.
	 */
	private static String queueFunctions(boolean sharded) {
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
				local function live_head(queue, waiting)
				  if redis.call('exists', queue) == 0 then return nil end
				  local now = nil
				  while true do
				    local head = redis.call('lindex', queue, 0)
				    if not head then return nil end
				    now = now or now_ms()
				    local deadline = tonumber(redis.call('hget', waiting, head))
				    if deadline and deadline > now then return head end
				    redis.call('lpop', queue)
				    if deadline then redis.call('hdel', waiting, head) end
				  end
				end
				local function grant(lock, queue, waiting, head, grant_lease, channel, fence, retention)
				  redis.call('lpop', queue)
				  redis.call('hdel', waiting, head)
				  local more = live_head(queue, waiting) ~= nil
				  redis.call('set', lock, more and (head .. '+') or head, 'px', grant_lease)
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

	/** Sets KEYS[2] to the next fencing token and leaves it in local {@code token}. */
	private static final String NEXT_FENCING_TOKEN = """
			local now = redis.call('time')
			local token = tonumber(now[1]) * 1000000 + tonumber(now[2])
			local last = tonumber(redis.call('get', KEYS[2]))
			if last and last >= token then token = last + 1 end
			redis.call('set', KEYS[2], string.format('%.0f', token), 'px', ARGV[3])
			""";

	/**
	 * KEYS: lock, fence. ARGV: owner, lease ms, fence retention ms. Returns the fencing
	 * token (&gt; 0) when acquired; otherwise {@code -1 - remaining ms} of the current
	 * holder's lease, after flagging the lock as contended.
	 * <p>
	 * Finding our own token means the lock was granted to this acquisition (whose owner
	 * token is the same for all its attempts, see {@link #ACQUIRE_QUEUED}), or that this
	 * is a replay of the same acquire (Lettuce re-sends unanswered commands after a
	 * reconnect): it counts as acquired, with a new fencing token and the lease reset to
	 * the one asked for (a grant runs only for the grant lease), instead of leaving a
	 * lock nobody knows it holds until its lease ends.
	 */
	static final RedisScript<Long> ACQUIRE = RedisScript.of(OWNS + """
			if redis.call('set', KEYS[1], ARGV[1], 'nx', 'px', ARGV[2]) then
			""" + NEXT_FENCING_TOKEN + """
			  return token
			end
			local current = redis.call('get', KEYS[1])
			if owns(current, ARGV[1]) then
			  redis.call('pexpire', KEYS[1], ARGV[2])
			""" + NEXT_FENCING_TOKEN + """
			  return token
			end
			if current and string.sub(current, -1) ~= '+' then redis.call('append', KEYS[1], '+') end
			local ttl = redis.call('pttl', KEYS[1])
			if ttl < 0 then ttl = tonumber(ARGV[2]) end
			return -1 - ttl
			""", Long.class);

	/**
	 * KEYS: lock, fence, queue, waiting. ARGV: owner, lease ms, fence retention ms, wait
	 * ms (&gt; 0). {@link #ACQUIRE} for the local head waiter of an instance that waits
	 * on (default, unfair mode): a free lock is taken at once whoever is queued (its
	 * queue entry of an earlier attempt, if any, withdrawn, and the lock flagged
	 * contended while others are queued, so that its release grants it on), a lock
	 * granted to the owner is claimed as {@link #ACQUIRE} claims it; a lock held by
	 * another owner is flagged contended and the owner queued at the end of the fair
	 * queue for ARGV[4] ms (keeping its place if it is queued), so that the holder's
	 * release grants it the lock. Returns as {@link #ACQUIRE} does.
	 */
	static final RedisScript<Long> ACQUIRE_QUEUED = RedisScript.of(OWNS + """
			local function now_ms()
			  local t = redis.call('time')
			  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
			end
			if redis.call('set', KEYS[1], ARGV[1], 'nx', 'px', ARGV[2]) then
			  redis.call('hdel', KEYS[4], ARGV[1])
			  if redis.call('exists', KEYS[3]) == 1 then redis.call('append', KEYS[1], '+') end
			""" + NEXT_FENCING_TOKEN + """
			  return token
			end
			local current = redis.call('get', KEYS[1])
			if owns(current, ARGV[1]) then
			  redis.call('pexpire', KEYS[1], ARGV[2])
			  redis.call('hdel', KEYS[4], ARGV[1])
			""" + NEXT_FENCING_TOKEN + """
			  return token
			end
			local wait = tonumber(ARGV[4])
			local now = now_ms()
			local deadline = tonumber(redis.call('hget', KEYS[4], ARGV[1]))
			if not deadline or deadline <= now then redis.call('rpush', KEYS[3], ARGV[1]) end
			redis.call('hset', KEYS[4], ARGV[1], now + wait)
			for i = 3, 4 do
			  if redis.call('pttl', KEYS[i]) < wait then redis.call('pexpire', KEYS[i], wait) end
			end
			if string.sub(current, -1) ~= '+' then redis.call('append', KEYS[1], '+') end
			local ttl = redis.call('pttl', KEYS[1])
			if ttl < 0 then ttl = tonumber(ARGV[2]) end
			return -1 - ttl
			""", Long.class);

	/**
	 * Frees KEYS[1] and leaves the receipt of owner ARGV[1] in KEYS[receipt] for
	 * ARGV[ttl] ms; when it was contended, grants it to the live head of the fair queue
	 * (KEYS[queue], KEYS[queue + 1]) for ARGV[grantLease] ms with the next token of the
	 * fencing key KEYS[fence] (kept for ARGV[ttl] ms, the fencing retention) if there is
	 * one, and otherwise announces the release on ARGV[channel]. On a Redis Cluster
	 * ({@code sharded}, see {@link #queueFunctions}) announcements are {@code SPUBLISH}es
	 * on the lock's own shard channel; a server without sharded pub/sub answers them with
	 * an error, caught by {@code pcall}, and a classic {@code PUBLISH} on the same
	 * channel follows instead, which a cluster broadcasts to every node.
	 */
	private static String freeWithReceipt(int receipt, int ttl, int channel, int queue, int grantLease, int fence) {
		return """
				  redis.call('set', KEYS[%1$d], ARGV[1], 'px', ARGV[%2$d])
				  local head = nil
				  if current ~= ARGV[1] then head = live_head(KEYS[%4$d], KEYS[%4$d + 1]) end
				  if head then
				    grant(KEYS[1], KEYS[%4$d], KEYS[%4$d + 1], head, ARGV[%5$d], ARGV[%3$d], KEYS[%6$d], ARGV[%2$d])
				  else
				    redis.call('del', KEYS[1])
				    if current ~= ARGV[1] then announce(ARGV[%3$d], KEYS[1]) end
				  end
				""".formatted(receipt, ttl, channel, queue, grantLease, fence);
	}

	/**
	 * KEYS: lock, receipt, queue, waiting, fence. ARGV: owner, release channel, receipt
	 * ttl ms (the fence retention), grant lease ms. Deletes the lock if owned, leaving a
	 * receipt; when it was contended, grants it to the live head of the fair queue, or
	 * else publishes the key. Returns 1 if released (also when a replay finds our
	 * receipt: the first run released it), 0 if not owned (expired or taken); an owner
	 * that does not hold the lock is withdrawn from the fair queue.
	 */
	static final RedisScript<Long> RELEASE = release(false);

	/**
	 * {@link #RELEASE} on a Redis Cluster: ARGV[2] is the lock's shard channel, announced
	 * on by {@code SPUBLISH}.
	 */
	static final RedisScript<Long> RELEASE_SHARDED = release(true);

	/**
	 * KEYS: lock, fence, receipt, queue, waiting. ARGV: owner, new owner, fence retention
	 * ms, lease ms of the new owner, whether the lock may stay local although contended
	 * from outside ("1"/"0"), release channel, receipt ttl ms (the fence retention),
	 * grant lease ms, owner token the new owner is queued under ("" if none). Hands the
	 * lock to a waiter of this instance without freeing it in between, withdrawing that
	 * waiter's queue entry (a grant to it later would go to nobody). Returns the new
	 * fencing token (&gt; 0) when handed over; -1 when it was released instead (flagged
	 * and not allowed to stay, so that outside waiters get their turn), leaving a receipt
	 * and granting as {@link #RELEASE} does; 0 if not owned. Queued waiters of other
	 * instances, fair ones included, do not keep a lock that may stay local from being
	 * handed over: the engine bounds how many hand-overs in a row stay local. A replay
	 * answers as the first run did: a hand-over that was applied is recognised by the new
	 * owner's token in place (and answers with a newer fencing token), a release instead
	 * by our receipt.
	 */
	static final RedisScript<Long> HAND_OVER = handOver(false);

	/**
	 * {@link #HAND_OVER} on a Redis Cluster: ARGV[6] is the lock's shard channel,
	 * announced on by {@code SPUBLISH}.
	 */
	static final RedisScript<Long> HAND_OVER_SHARDED = handOver(true);

	/**
	 * KEYS: lock, fence, queue, waiting. ARGV: owner, lease ms, fence retention ms, wait
	 * ms (life of the queue entry, 0 for none), grant lease ms, release channel. Acquires
	 * the lock first come, first served: returns a fencing token (&gt; 0) when the lock
	 * was granted to the owner (its lease is reset to ARGV[2]; also a replay), or when it
	 * is free and the owner is the live head of the queue or nobody is queued. Otherwise
	 * queues the owner (keeping its place if it is queued), flags the lock contended and
	 * returns {@code -1 - remaining ms} of the holder's lease; a free lock with a live
	 * head that is somebody else is granted to that head first.
	 */
	static final RedisScript<Long> ACQUIRE_FAIR = acquireFair(false);

	/**
	 * {@link #ACQUIRE_FAIR} on a Redis Cluster: ARGV[6] is the lock's shard channel.
	 */
	static final RedisScript<Long> ACQUIRE_FAIR_SHARDED = acquireFair(true);

	/**
	 * KEYS: lock. ARGV: owner, lease ms. Resets the lease if owned. Returns 1 if
	 * extended, 0 if not owned. Used for renewal, {@code extend} and to leave a lock in
	 * place for its minimum hold time.
	 */
	static final RedisScript<Long> EXPIRE = RedisScript.of(OWNS + """
			local current = redis.call('get', KEYS[1])
			if owns(current, ARGV[1]) then
			  redis.call('pexpire', KEYS[1], ARGV[2])
			  return 1
			end
			return 0
			""", Long.class);

	private static RedisScript<Long> release(boolean sharded) {
		return RedisScript.of(OWNS + queueFunctions(sharded) + """
				local current = redis.call('get', KEYS[1])
				if owns(current, ARGV[1]) then
				""" + freeWithReceipt(2, 3, 2, 3, 4, 5) + """
				  return 1
				end
				if redis.call('exists', KEYS[4]) == 1 then redis.call('hdel', KEYS[4], ARGV[1]) end
				if redis.call('get', KEYS[2]) == ARGV[1] then return 1 end
				return 0
				""", Long.class);
	}

	private static RedisScript<Long> acquireFair(boolean sharded) {
		return RedisScript.of(OWNS + queueFunctions(sharded) + """
				local current = redis.call('get', KEYS[1])
				if owns(current, ARGV[1]) then
				  redis.call('pexpire', KEYS[1], ARGV[2])
				  redis.call('hdel', KEYS[4], ARGV[1])
				""" + NEXT_FENCING_TOKEN + """
				  return token
				end
				if not current then
				  local head = live_head(KEYS[3], KEYS[4])
				  if not head or head == ARGV[1] then
				    if head then
				      redis.call('lpop', KEYS[3])
				      redis.call('hdel', KEYS[4], head)
				    end
				    local more = live_head(KEYS[3], KEYS[4]) ~= nil
				    redis.call('set', KEYS[1], more and (ARGV[1] .. '+') or ARGV[1], 'px', ARGV[2])
				""" + NEXT_FENCING_TOKEN + """
				    return token
				  end
				  grant(KEYS[1], KEYS[3], KEYS[4], head, ARGV[5], ARGV[6], KEYS[2], ARGV[3])
				end
				local wait = tonumber(ARGV[4])
				if wait > 0 then
				  local now = now_ms()
				  local deadline = tonumber(redis.call('hget', KEYS[4], ARGV[1]))
				  if not deadline or deadline <= now then redis.call('rpush', KEYS[3], ARGV[1]) end
				  redis.call('hset', KEYS[4], ARGV[1], now + wait)
				  for i = 3, 4 do
				    if redis.call('pttl', KEYS[i]) < wait then redis.call('pexpire', KEYS[i], wait) end
				  end
				end
				current = redis.call('get', KEYS[1])
				if string.sub(current, -1) ~= '+' then redis.call('append', KEYS[1], '+') end
				local ttl = redis.call('pttl', KEYS[1])
				if ttl < 0 then ttl = tonumber(ARGV[2]) end
				return -1 - ttl
				""", Long.class);
	}

	private static RedisScript<Long> handOver(boolean sharded) {
		return RedisScript.of(OWNS + queueFunctions(sharded) + """
				local current = redis.call('get', KEYS[1])
				if owns(current, ARGV[2]) then
				""" + NEXT_FENCING_TOKEN + """
				  return token
				end
				local contended = current == ARGV[1] .. '+'
				if not owns(current, ARGV[1]) then
				  if redis.call('get', KEYS[3]) == ARGV[1] then return -1 end
				  return 0
				end
				if contended and ARGV[5] == '0' then
				""" + freeWithReceipt(3, 7, 6, 4, 8, 2) + """
				  return -1
				end
				if contended and ARGV[9] ~= '' and redis.call('exists', KEYS[5]) == 1 then
				  redis.call('hdel', KEYS[5], ARGV[9])
				end
				redis.call('set', KEYS[1], contended and (ARGV[2] .. '+') or ARGV[2], 'px', ARGV[4])
				""" + NEXT_FENCING_TOKEN + """
				return token
				""", Long.class);
	}

	private LockScripts() {
	}

}

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
 * Releases and hand-overs of a contended lock grant it to the head of its queue when one
 * is waiting: see {@link QueueScripts}.
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
	static final String OWNS = """
			local function owns(value, owner) return value == owner or value == owner .. '+' end
			""";

	/** Sets KEYS[2] to the next fencing token and leaves it in local {@code token}. */
	static final String NEXT_FENCING_TOKEN = """
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
	 * token is the same for all its attempts, see {@link QueueScripts#ACQUIRE_QUEUED}),
	 * or that this is a replay of the same acquire (Lettuce re-sends unanswered commands
	 * after a reconnect): it counts as acquired, with a new fencing token and the lease
	 * reset to the one asked for (a grant runs only for the grant lease), instead of
	 * leaving a lock nobody knows it holds until its lease ends.
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
	 * Frees KEYS[1] and leaves the receipt of owner ARGV[1] in KEYS[receipt] for
	 * ARGV[ttl] ms; when it was contended, grants it to the live head of the fair queue
	 * (KEYS[queue], KEYS[queue + 1]) for ARGV[grantLease] ms with the next token of the
	 * fencing key KEYS[fence] (kept for ARGV[ttl] ms, the fencing retention) if there is
	 * one, and otherwise announces the release on ARGV[channel]. On a Redis Cluster
	 * ({@code sharded}, see {@link QueueScripts#functions}) announcements are
	 * {@code SPUBLISH}es on the lock's own shard channel; a server without sharded
	 * pub/sub answers them with an error, caught by {@code pcall}, and a classic
	 * {@code PUBLISH} on the same channel follows instead, which a cluster broadcasts to
	 * every node.
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
		return RedisScript.of(OWNS + QueueScripts.functions(sharded) + """
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

	private static RedisScript<Long> handOver(boolean sharded) {
		return RedisScript.of(OWNS + QueueScripts.functions(sharded) + """
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

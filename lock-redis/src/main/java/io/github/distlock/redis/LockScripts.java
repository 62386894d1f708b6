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
 * retention after it was handed out (not after the last lease: a lock renewed for longer
 * than the retention outlives its fencing key). A fresh acquisition by {@link #ACQUIRE}
 * (and {@link QueueScripts#ACQUIRE_QUEUED}) hands out no token unless asked to: it
 * answers 0, and the holder that reads its token asks {@link #ISSUE_FENCING_TOKEN},
 * owner-checked, so the uncontended cycle of a caller that never reads it runs no
 * {@code TIME} and does not touch (or leave) the fencing key. Holds are disjoint in time
 * and every token is issued during its owner's hold, so the order of the tokens is still
 * that of the holds. The next token is
 * {@code max(server time in microseconds, last + 1)}: strictly increasing while the
 * fencing key lives, and still increasing after it expired, because the server clock has
 * moved on by more than the number of acquisitions in between (unless it stepped back by
 * more than the retention).
 * <p>
 * Release receipt value: the owners whose part in the lock ended, most recent first, one
 * per line, at most {@value #ENDED_OWNERS}, kept for the receipt retention
 * ({@link ReceiptRetention}) after the last of them (see {@link #RECEIPT}). An owner's
 * part ends when it releases the lock, hands it over, or is released while not holding it
 * (a waiter withdrawing, a clean-up after an unanswered command). Two things can come
 * late (see {@link ReceiptRetention}): a replayed release or hand-over answers from the
 * receipt as the first run did, and every acquire script refuses, changing nothing, a
 * copy of an acquire of an owner the receipt lists (else it would take a free lock, or
 * queue, for an owner nobody waits as: a ghost lock). Both are recognised unless
 * {@value #ENDED_OWNERS} other owners of the same lock ended between the first run and
 * the late one. The receipt expires, but no acquire outlives it: every acquire script
 * carries {@code notAfter}, the last server time in ms at which it may change anything
 * (see {@link AcquireDeadline}), and a copy applied later changes nothing and answers
 * {@link #EXPIRED_IN_TRANSIT} ({@link #refuseLate}). The client sets {@code notAfter} to
 * its send time on the server's clock (underestimated) plus the receipt retention, and
 * every clean-up is sent after the acquire it cleans up after, so its receipt lives at
 * least until {@code notAfter}: a copy is refused by the receipt before, by the time
 * check after, whatever its delay. This assumes that the server's clock does not step
 * back by more than the receipt retention while a copy is in flight.
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

	/** How many ended owners a lock's release receipt remembers. */
	static final int ENDED_OWNERS = 16;

	/**
	 * The release receipt, written once and defined at the start of every script that
	 * needs it. Each line is an owner whose part in the lock ended: the owner token when
	 * it released the lock, {@code ~} and the token when it ended otherwise (handed the
	 * lock over, or was released while not holding it). {@code released(receipt, owner)}
	 * tells whether the owner released the lock (a replayed release answers from it),
	 * {@code ended(receipt, owner)} whether its part ended either way (a late acquire is
	 * refused), and {@code note_ended(receipt, ttl, line)} adds a line, keeping the
	 * receipt for {@code ttl} ms. Owner tokens never contain a line break.
	 */
	static final String RECEIPT = """
			local function listed(list, line)
			  return list and string.find('\\n' .. list .. '\\n', '\\n' .. line .. '\\n', 1, true) ~= nil
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
			    for earlier in string.gmatch(old, '[^\\n]+') do
			      if count >= %d then break end
			      if earlier ~= owner and earlier ~= '~' .. owner then
			        list = list .. '\\n' .. earlier
			        count = count + 1
			      end
			    end
			  end
			  redis.call('set', receipt, list, 'px', ttl)
			end
			""".formatted(ENDED_OWNERS);

	/**
	 * Refuses an acquire whose owner ended (a late copy): changes nothing and answers
	 * {@code -1 - remaining ms} of the lock's lease, 0 when free. Needs {@code ended};
	 * KEYS[1] is the lock, ARGV[1] the owner, {@code receipt} the receipt's key.
	 */
	static String refuseEnded(String receipt) {
		return """
				if ended(%s, ARGV[1]) then
				  local ttl = redis.call('pttl', KEYS[1])
				  if ttl < 0 then ttl = 0 end
				  return -1 - ttl
				end
				""".formatted(receipt);
	}

	/**
	 * The reply of an acquire applied after its {@code notAfter} ("expired in transit"):
	 * it changed nothing, and the client counts it as an unknown outcome, as a timeout.
	 * Below {@code -1 - remaining ms} of any lease a lock can have (285,000 years).
	 */
	static final long EXPIRED_IN_TRANSIT = -(1L << 53);

	/**
	 * Refuses a late acquire: changes nothing and answers {@link #EXPIRED_IN_TRANSIT}
	 * when the server's time in ms is past ARGV[{@code notAfter}] (see
	 * {@link AcquireDeadline}). First in every acquire script, before anything is read or
	 * written.
	 */
	static String refuseLate(int notAfter) {
		return """
				local arrived = redis.call('time')
				if tonumber(arrived[1]) * 1000 + math.floor(tonumber(arrived[2]) / 1000) > tonumber(ARGV[%d]) then
				  return %d
				end
				""".formatted(notAfter, EXPIRED_IN_TRANSIT);
	}

	/**
	 * Sets KEYS[2] to the next fencing token, kept for ARGV[3] ms, and leaves it in local
	 * {@code token}.
	 */
	static final String NEXT_FENCING_TOKEN = nextFencingToken("ARGV[3]");

	/**
	 * {@link #NEXT_FENCING_TOKEN} with the fencing key kept for {@code retention} ms (a
	 * Lua expression).
	 */
	static String nextFencingToken(String retention) {
		return """
				local now = redis.call('time')
				local token = tonumber(now[1]) * 1000000 + tonumber(now[2])
				local last = tonumber(redis.call('get', KEYS[2]))
				if last and last >= token then token = last + 1 end
				redis.call('set', KEYS[2], string.format('%%.0f', token), 'px', %s)
				""".formatted(retention);
	}

	/**
	 * Answers 0 from a fresh acquisition unless ARGV[{@code issueNow}] is "1": the token
	 * is then issued on read ({@link #ISSUE_FENCING_TOKEN}).
	 */
	static String tokenOnReadUnless(int issueNow) {
		return "  if ARGV[%d] ~= '1' then return 0 end\n".formatted(issueNow);
	}

	/**
	 * KEYS: lock, fence. ARGV: owner, fence retention ms. Issues the next fencing token
	 * (&gt; 0) if the owner holds the lock (exclusively), keeping it in the fencing key
	 * for the retention; 0 if it does not. A replay issues another, greater token.
	 */
	static final RedisScript<Long> ISSUE_FENCING_TOKEN = RedisScript.of(OWNS + """
			if not owns(redis.call('get', KEYS[1]), ARGV[1]) then return 0 end
			""" + nextFencingToken("ARGV[2]") + """
			return token
			""", Long.class);

	/**
	 * KEYS: lock, fence, receipt. ARGV: owner, lease ms, fence retention ms, "1" to issue
	 * the token of a fresh acquisition now, {@code notAfter} (server time in ms, see
	 * {@link #refuseLate}). Returns the fencing token (&gt; 0) when acquired (0 for a
	 * fresh acquisition whose token is issued on read); otherwise {@code -1 - remaining
	 * ms} of the current holder's lease, after flagging the lock as contended. An owner
	 * whose part in the lock ended (a late copy) is refused and changes nothing; an
	 * acquire applied after {@code notAfter} changes nothing and answers
	 * {@link #EXPIRED_IN_TRANSIT}.
	 * <p>
	 * Finding our own token means the lock was granted to this acquisition (whose owner
	 * token is the same for all its attempts, see {@link QueueScripts#ACQUIRE_QUEUED}),
	 * or that this is a replay of the same acquire (Lettuce re-sends unanswered commands
	 * after a reconnect): it counts as acquired, with a new fencing token and at least
	 * the lease asked for, instead of leaving a lock nobody knows it holds until its
	 * lease ends. A lease that runs longer is kept: a copy applied after the holder
	 * extended its lease must not end the lock before the holder's deadline. (Found by an
	 * early model of the simulation that let one connection reorder commands, seed 957: a
	 * 2.7 s lease cut back to the 720 ms asked for. Lettuce keeps the order on a
	 * connection; the replica-acknowledged store's pooled connections do not.)
	 */
	static final RedisScript<Long> ACQUIRE = RedisScript
		.of(OWNS + RECEIPT + refuseLate(5) + refuseEnded("KEYS[3]") + """
				if redis.call('set', KEYS[1], ARGV[1], 'nx', 'px', ARGV[2]) then
				""" + tokenOnReadUnless(4) + NEXT_FENCING_TOKEN + """
				  return token
				end
				local current = redis.call('get', KEYS[1])
				if owns(current, ARGV[1]) then
				  if redis.call('pttl', KEYS[1]) < tonumber(ARGV[2]) then redis.call('pexpire', KEYS[1], ARGV[2]) end
				""" + NEXT_FENCING_TOKEN + """
				  return token
				end
				if current and string.sub(current, -1) ~= '+' then redis.call('append', KEYS[1], '+') end
				local ttl = redis.call('pttl', KEYS[1])
				if ttl < 0 then ttl = tonumber(ARGV[2]) end
				return -1 - ttl
				""", Long.class);

	/**
	 * Frees KEYS[1] and notes the end of owner ARGV[1] in the receipt KEYS[receipt] for
	 * ARGV[ttl] ms; when it was contended, withdraws the owner's own queue entry (left by
	 * an earlier attempt when its last one, with no wait left, took the free lock: its
	 * acquisition is over, a grant to it would go to nobody) and grants it to the live
	 * head of the fair queue (KEYS[queue], KEYS[queue + 1]) with the lease that head
	 * asked for (ARGV[grantLease] ms for an entry without one) and the next token of the
	 * fencing key KEYS[fence] (kept for ARGV[fenceTtl] ms, the fencing retention) if
	 * there is one, and otherwise announces the release on ARGV[channel]. On a Redis
	 * Cluster ({@code sharded}, see {@link QueueScripts#functions}) announcements are
	 * {@code SPUBLISH}es on the lock's own shard channel; a server without sharded
	 * pub/sub answers them with an error, caught by {@code pcall}, and a classic
	 * {@code PUBLISH} on the same channel follows instead, which a cluster broadcasts to
	 * every node.
	 */
	private static String freeWithReceipt(int receipt, int ttl, int channel, int queue, int grantLease, int fence,
			int fenceTtl) {
		return freeWithReceipt(receipt, ttl, channel, queue, grantLease, fence, fenceTtl, "true");
	}

	/**
	 * {@link #freeWithReceipt(int, int, int, int, int, int, int)} announcing a release
	 * only when the Lua condition {@code announceIf} holds (a grant is always announced:
	 * the granted waiter learns of it so).
	 */
	private static String freeWithReceipt(int receipt, int ttl, int channel, int queue, int grantLease, int fence,
			int fenceTtl, String announceIf) {
		return """
				  note_ended(KEYS[%1$d], ARGV[%2$d], ARGV[1])
				  local head, entry = nil, nil
				  if current ~= ARGV[1] then
				    redis.call('hdel', KEYS[%4$d + 1], ARGV[1])
				    head, entry = live_head(KEYS[%4$d], KEYS[%4$d + 1])
				  end
				  if head then
				    grant(KEYS[1], KEYS[%4$d], KEYS[%4$d + 1], head, entry, ARGV[%5$d], ARGV[%3$d], KEYS[%6$d],
				      ARGV[%8$d])
				  else
				    redis.call('del', KEYS[1])
				    if current ~= ARGV[1] and %7$s then announce(ARGV[%3$d], KEYS[1]) end
				  end
				""".formatted(receipt, ttl, channel, queue, grantLease, fence, announceIf, fenceTtl);
	}

	/**
	 * KEYS: lock, receipt, queue, waiting, fence, holders. ARGV: owner, release channel,
	 * receipt ttl ms ({@link ReceiptRetention}), grant lease ms, "1" to withdraw
	 * (announce no release), fence retention ms. Deletes the lock if owned, noting the
	 * owner's end in the receipt; when it was contended, grants it to the live head of
	 * the fair queue, or else publishes the key (unless withdrawn). Returns 1 if released
	 * (also when a replay finds the owner in the receipt: the first run released it), 0
	 * if not owned (expired or taken); an owner that does not hold the lock is withdrawn
	 * from the fair queue and noted as ended, so that a late copy of its acquire changes
	 * nothing.
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
	 * from outside ("1"/"0"), release channel, receipt ttl ms ({@link ReceiptRetention}),
	 * grant lease ms, owner token the new owner is queued under ("" if none). Hands the
	 * lock to a waiter of this instance without freeing it in between, withdrawing that
	 * waiter's queue entry (a grant to it later would go to nobody), and notes the end of
	 * the old owner in the receipt (the queued token is not noted: the waiter's
	 * acquisition goes on under it should the engine not take the hand-over). Returns the
	 * new fencing token (&gt; 0) when handed over; -1 when it was released instead
	 * (flagged and not allowed to stay, so that outside waiters get their turn), leaving
	 * a receipt and granting as {@link #RELEASE} does; 0 if not owned. Queued waiters of
	 * other instances, fair ones included, do not keep a lock that may stay local from
	 * being handed over: the engine bounds how many hand-overs in a row stay local. A
	 * replay answers as the first run did: a hand-over that was applied is recognised by
	 * the new owner's token in place (and answers with a newer fencing token), a release
	 * instead by our receipt.
	 */
	static final RedisScript<Long> HAND_OVER = handOver(false);

	/**
	 * {@link #HAND_OVER} on a Redis Cluster: ARGV[6] is the lock's shard channel,
	 * announced on by {@code SPUBLISH}.
	 */
	static final RedisScript<Long> HAND_OVER_SHARDED = handOver(true);

	/** How many locks one {@link #EXPIRE} renews at most: a bit of its reply each. */
	static final int EXPIRE_BATCH = 50;

	/**
	 * KEYS: lock, holders, for each lock. ARGV: owner, lease ms, for each lock. Resets
	 * the lease of each lock its owner holds (or of the owner's shared hold, see
	 * {@link SharedScripts}). Returns the sum of {@code 2^i} for each renewed lock
	 * {@code i} (from 0), so 1 or 0 for one lock: at most {@value #EXPIRE_BATCH} locks,
	 * within the integers a Lua number holds exactly. Used for renewal (batched),
	 * {@code extend} and to leave a lock in place for its minimum hold time.
	 */
	static final RedisScript<Long> EXPIRE = RedisScript
		.of(OWNS + SharedScripts.FUNCTIONS + SharedScripts.EXTEND_HOLD + """
				local renewed, bit = 0, 1
				for i = 1, #KEYS, 2 do
				  local current = redis.call('get', KEYS[i])
				  if owns(current, ARGV[i]) then
				    redis.call('pexpire', KEYS[i], ARGV[i + 1])
				    renewed = renewed + bit
				  elseif extend_hold(KEYS[i], KEYS[i + 1], ARGV[i], ARGV[i + 1], current) then
				    renewed = renewed + bit
				  end
				  bit = bit * 2
				end
				return renewed
				""", Long.class);

	private static RedisScript<Long> release(boolean sharded) {
		return RedisScript.of(OWNS + RECEIPT + QueueScripts.functions(sharded) + SharedScripts.FUNCTIONS + """
				local current = redis.call('get', KEYS[1])
				if owns(current, ARGV[1]) then
				""" + freeWithReceipt(2, 3, 2, 3, 4, 5, 6, "ARGV[5] ~= '1'") + """
				  return 1
				end
				""" + SharedScripts.RELEASE_HOLD + """
				if redis.call('exists', KEYS[4]) == 1 then redis.call('hdel', KEYS[4], ARGV[1]) end
				if released(KEYS[2], ARGV[1]) then return 1 end
				note_ended(KEYS[2], ARGV[3], '~' .. ARGV[1])
				return 0
				""", Long.class);
	}

	private static RedisScript<Long> handOver(boolean sharded) {
		return RedisScript.of(OWNS + RECEIPT + QueueScripts.functions(sharded) + """
				local current = redis.call('get', KEYS[1])
				if owns(current, ARGV[2]) then
				""" + NEXT_FENCING_TOKEN + """
				  return token
				end
				local contended = current == ARGV[1] .. '+'
				if not owns(current, ARGV[1]) then
				  if released(KEYS[3], ARGV[1]) then return -1 end
				  note_ended(KEYS[3], ARGV[7], '~' .. ARGV[1])
				  return 0
				end
				if contended and ARGV[5] == '0' then
				""" + freeWithReceipt(3, 7, 6, 4, 8, 2, 3) + """
				  return -1
				end
				if contended and ARGV[9] ~= '' and redis.call('exists', KEYS[5]) == 1 then
				  redis.call('hdel', KEYS[5], ARGV[9])
				end
				redis.call('set', KEYS[1], contended and (ARGV[2] .. '+') or ARGV[2], 'px', ARGV[4])
				note_ended(KEYS[3], ARGV[7], '~' .. ARGV[1])
				""" + NEXT_FENCING_TOKEN + """
				return token
				""", Long.class);
	}

	private LockScripts() {
	}

}

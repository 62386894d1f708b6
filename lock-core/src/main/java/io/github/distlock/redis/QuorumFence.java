package io.github.distlock.redis;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.distlock.redis.NodeCalls.Replies;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * Makes the fencing token of a quorum acquisition greater than every token handed out
 * before for the lock, before it is handed out: the second round trip of a quorum
 * acquisition or hand-over.
 * <p>
 * <b>Record.</b> Each node keeps the last recorded token of a lock in
 * {@code <key>:quorum-fence} for the fencing retention. The acquirer proposes a token
 * (the largest its granting nodes' acquire scripts produced, each
 * {@code max(server time in µs, last + 1)}); every node raises its record to the proposal
 * and answers the record it had before. The proposal is handed out only when a majority
 * of <em>trusted</em> nodes had a smaller record; a node with a record at or above the
 * proposal makes the acquirer propose above it and ask again.
 * <p>
 * <b>Why it increases.</b> An earlier token T' was handed out only after a majority of
 * trusted nodes recorded it. Our trusted majority meets that majority in at least one
 * node. That node still has a record &ge; T' (then it answered below our proposal only if
 * the proposal exceeds T'), or its record expired (the retention passed since T', and the
 * proposal, at least one node's clock now, exceeds T', which was at most a node's clock
 * then, as long as node clocks differ by less than the retention), or it lost its data in
 * a restart: then it is not trusted.
 * <p>
 * <b>Trusted.</b> A node is trusted once it has kept its data for the fencing retention:
 * the script writes the node's time into {@code <prefix>quorum-node-since} the first time
 * it runs on an empty node (no expiry), and a node answers "trusted" when that time is at
 * least the retention old. A node restarted empty forgets it, so for one retention it
 * does not count; by then every record it lost would have expired anyway. A majority of
 * untrusted answers (a new deployment, or a majority restarted empty within one
 * retention, which is beyond what the quorum promises) counts as trusted: there is
 * nothing to protect on a new deployment.
 */
final class QuorumFence {

	/**
	 * KEYS: quorum fence record, the single-store fence key, node-since. ARGV: proposed
	 * token, retention ms, retention µs. Raises the record and the node's own fence to
	 * the proposal (the next acquisition on this node then continues above it). Returns
	 * {record before, 1 if trusted else 0}.
	 */
	static final RedisScript<List> RECORD = RedisScript.of("""
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
			""", List.class);

	/** Rounds before giving up when other acquirers keep raising the records. */
	private static final int MAX_ROUNDS = 3;

	private final NodeCalls nodes;

	private final String nodeSinceKey;

	private final String retentionMillis;

	private final String retentionMicros;

	QuorumFence(NodeCalls nodes, String keyPrefix, long retentionMillis) {
		this.nodes = nodes;
		this.nodeSinceKey = keyPrefix + "quorum-node-since";
		this.retentionMillis = Long.toString(retentionMillis);
		this.retentionMicros = Long.toString(TimeUnit.MILLISECONDS.toMicros(retentionMillis));
	}

	static String recordKey(String lockKey) {
		return lockKey + ":quorum-fence";
	}

	/**
	 * Records a token at least {@code proposal} on a majority of trusted nodes.
	 * @param key the lock's key
	 * @param proposal the largest token the granting nodes produced
	 * @param waitNanos how long to wait for the nodes in each round
	 * @return the recorded token, or {@code null} with the failure in {@code failure[0]}
	 * when no majority recorded it
	 */
	@Nullable Long record(String key, long proposal, long waitNanos, RuntimeException[] failure) {
		int majority = this.nodes.majority();
		long token = proposal;
		for (int round = 0; round < MAX_ROUNDS; round++) {
			long proposed = token;
			Replies<Recorded> replies = this.nodes.call((node) -> record(node, key, proposed), waitNanos,
					(sofar) -> accepted(sofar.answers(), proposed) >= majority || higher(sofar.answers(), proposed));
			List<Recorded> answers = replies.answers();
			long highest = answers.stream().mapToLong(Recorded::before).max().orElse(0);
			if (highest >= proposed) {
				token = highest + 1;
				continue;
			}
			if (accepted(answers, proposed) >= majority) {
				return proposed;
			}
			failure[0] = replies.noMajority("Could not record fencing token " + proposed + " of lock key '"
					+ io.github.distlock.support.LogSafe.text(key) + "' on a majority of trusted nodes: trusted "
					+ answers.stream().filter(Recorded::trusted).count() + ", recorded", majority, (reply) -> true);
			return null;
		}
		failure[0] = new org.springframework.dao.TransientDataAccessResourceException(
				"Could not record a fencing token of lock key '" + io.github.distlock.support.LogSafe.text(key)
						+ "': other acquirers kept raising it for " + MAX_ROUNDS + " rounds");
		return null;
	}

	/**
	 * Nodes that recorded {@code proposal} over a smaller record and count for the
	 * majority: trusted ones, or all when most answers are untrusted (see the class
	 * notes).
	 */
	private int accepted(List<Recorded> answers, long proposal) {
		long below = answers.stream().filter((answer) -> answer.before() < proposal).count();
		long trustedBelow = answers.stream().filter((answer) -> answer.trusted() && answer.before() < proposal).count();
		long untrusted = answers.stream().filter((answer) -> !answer.trusted()).count();
		return (int) ((untrusted >= this.nodes.majority()) ? below : trustedBelow);
	}

	private static boolean higher(List<Recorded> answers, long proposal) {
		return answers.stream().anyMatch((answer) -> answer.before() >= proposal);
	}

	private Recorded record(QuorumNode node, String key, long proposal) {
		List<?> reply = node.redis()
			.execute(RECORD, List.of(recordKey(key), LockKeys.fenceKey(key), this.nodeSinceKey),
					Long.toString(proposal), this.retentionMillis, this.retentionMicros);
		if (reply == null || reply.size() != 2) {
			throw new IllegalStateException("Redis returned no reply to the fencing record script");
		}
		return new Recorded(Long.parseLong(String.valueOf(reply.get(0))), ((Number) reply.get(1)).longValue() == 1);
	}

	/**
	 * A node's answer.
	 *
	 * @param before its record before (0 if none)
	 * @param trusted whether it kept its data for the fencing retention
	 */
	record Recorded(long before, boolean trusted) {
	}

}

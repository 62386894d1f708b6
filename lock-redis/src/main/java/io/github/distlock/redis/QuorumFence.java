package io.github.distlock.redis;

import java.util.List;

import io.github.distlock.redis.NodeCalls.Replies;
import io.github.distlock.redis.QuorumFenceRecords.Recorded;
import org.jspecify.annotations.Nullable;

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

	/** Rounds before giving up when other acquirers keep raising the records. */
	private static final int MAX_ROUNDS = 3;

	private final NodeCalls nodes;

	QuorumFence(NodeCalls nodes) {
		this.nodes = nodes;
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
			Replies<Recorded> replies = this.nodes.call((node) -> node.fence().record(key, proposed), waitNanos,
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

}

package io.github.distlock.redis;

import java.util.List;
import java.util.function.Predicate;

import io.github.distlock.redis.NodeCalls.Replies;
import io.github.distlock.store.NotOwned;
import io.github.distlock.store.Unknown;
import io.github.distlock.support.LogSafe;

/**
 * Counts the replies of the nodes of a quorum to one command against a majority: when the
 * replies so far decide whether a majority answered as asked, and what the command then
 * answers. Both use one test, so a call never stops waiting before its outcome can be
 * told.
 */
final class QuorumVote {

	private final int size;

	private final int majority;

	QuorumVote(NodeCalls nodes) {
		this.size = nodes.size();
		this.majority = nodes.majority();
	}

	/**
	 * Whether the replies so far decide if a majority answered {@code success}: it did,
	 * or the nodes that answered otherwise (not {@link Unknown}) leave no majority
	 * possible. For {@link NodeCalls#call}; combine with {@code and} when an outcome
	 * depends on two counts.
	 */
	<R> Predicate<Replies<R>> decides(Predicate<Object> success) {
		return (sofar) -> {
			List<R> answers = sofar.answers();
			long yes = answers.stream().filter(success).count();
			long definite = answers.stream().filter((reply) -> !(reply instanceof Unknown)).count();
			return yes >= this.majority || definite - yes > this.size - this.majority;
		};
	}

	/**
	 * {@code succeeded} when a majority answered {@code success}; otherwise
	 * {@link NotOwned} when the other answers leave no majority possible, {@link Unknown}
	 * naming every node and why while silent or failed nodes could still make one.
	 * @param what the operation, for the message ("release")
	 * @throws RuntimeException a node's failure that is not an unknown outcome (e.g. an
	 * ACL's {@code NOPERM}), when no majority is reached
	 */
	<R> R outcome(Replies<?> replies, String what, String key, Predicate<Object> success, R succeeded) {
		List<?> answers = replies.answers();
		long yes = answers.stream().filter(success).count();
		if (yes >= this.majority) {
			return succeeded;
		}
		long unknown = this.size - answers.size() + count(answers, Unknown.class);
		if (yes + unknown < this.majority) {
			@SuppressWarnings("unchecked")
			R notOwned = (R) NotOwned.INSTANCE;
			return notOwned;
		}
		RuntimeException mistake = replies.mistake();
		if (mistake != null) {
			throw mistake;
		}
		@SuppressWarnings("unchecked")
		R outcomeUnknown = (R) new Unknown(
				replies.noMajority("Could not " + what + " lock key '" + LogSafe.text(key) + "' on a majority: done on",
						this.majority, success));
		return outcomeUnknown;
	}

	/** How many of {@code answers} are of {@code type}. */
	static int count(List<?> answers, Class<?> type) {
		return (int) answers.stream().filter(type::isInstance).count();
	}

}

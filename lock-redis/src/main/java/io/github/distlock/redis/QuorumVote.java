package io.github.distlock.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import io.github.distlock.redis.NodeCalls.Replies;
import io.github.distlock.store.NotOwned;
import io.github.distlock.store.Unknown;
import io.github.distlock.support.LogSafe;

import org.springframework.dao.DataAccessResourceFailureException;

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

	/**
	 * {@link #decides} for a batch, whose every node answers a list with a reply per
	 * item: decided when each item is.
	 */
	<R> Predicate<Replies<List<R>>> decidesEach(int items, Predicate<Object> success) {
		return (sofar) -> {
			List<List<R>> answers = sofar.answers();
			for (int i = 0; i < items; i++) {
				int item = i;
				long yes = answers.stream().filter((answer) -> success.test(answer.get(item))).count();
				long definite = answers.stream().filter((answer) -> !(answer.get(item) instanceof Unknown)).count();
				if (yes < this.majority && definite - yes <= this.size - this.majority) {
					return false;
				}
			}
			return true;
		};
	}

	/**
	 * {@link #outcome} of each item of a batch, whose every node answered a list with a
	 * reply per item.
	 */
	<R> List<R> outcomes(Replies<List<R>> replies, int items, String what, Predicate<Object> success, R succeeded) {
		List<List<R>> answers = replies.answers();
		List<R> outcomes = new ArrayList<>(items);
		for (int i = 0; i < items; i++) {
			int item = i;
			List<R> replied = answers.stream().map((answer) -> answer.get(item)).toList();
			long yes = replied.stream().filter(success).count();
			long unknown = this.size - answers.size() + count(replied, Unknown.class);
			if (yes >= this.majority) {
				outcomes.add(succeeded);
				continue;
			}
			if (yes + unknown < this.majority) {
				@SuppressWarnings("unchecked")
				R notOwned = (R) NotOwned.INSTANCE;
				outcomes.add(notOwned);
				continue;
			}
			RuntimeException mistake = replies.mistake();
			if (mistake != null) {
				throw mistake;
			}
			@SuppressWarnings("unchecked")
			R outcomeUnknown = (R) new Unknown(new DataAccessResourceFailureException("Could not " + what
					+ " on a majority: done on " + yes + " of " + this.size + " Redis nodes, a majority is "
					+ this.majority + "; the others failed or did not answer in time"));
			outcomes.add(outcomeUnknown);
		}
		return outcomes;
	}

	/** How many of {@code answers} are of {@code type}. */
	static int count(List<?> answers, Class<?> type) {
		return (int) answers.stream().filter(type::isInstance).count();
	}

}

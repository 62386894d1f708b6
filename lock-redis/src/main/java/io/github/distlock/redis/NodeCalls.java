package io.github.distlock.redis;

import io.github.distlock.redis.QuorumLockStore.Member;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.runtime.TaskPool;
import io.github.distlock.store.Unknown;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessResourceFailureException;

/**
 * Sends one command to every node of a quorum at once and waits for the replies until
 * they decide the outcome, all nodes answered, or the wait ends: the caller never waits
 * for a slow node longer than that, and never for the rest once a majority has spoken.
 * <p>
 * Each node's command runs on a thread of a pool of daemon threads that end when idle
 * (the node's client is blocking); a command still running when the caller stops waiting
 * ends with the node's own command timeout. The threads, the clock and the caller's wait
 * are the engine's {@link EngineRuntime}'s.
 */
final class NodeCalls implements AutoCloseable {

	private final List<Member> nodes;

	private final TaskPool executor;

	private final EngineRuntime runtime;

	NodeCalls(List<Member> nodes, EngineRuntime runtime) {
		this.nodes = List.copyOf(nodes);
		this.runtime = runtime;
		this.executor = runtime.newTaskPool("distlock-quorum", TaskPool.UNBOUNDED, false);
	}

	int size() {
		return this.nodes.size();
	}

	/** The smallest number of nodes that is more than half of them. */
	int majority() {
		return this.nodes.size() / 2 + 1;
	}

	List<Member> nodes() {
		return this.nodes;
	}

	/**
	 * Runs {@code command} on every node in parallel.
	 * @param command what to run on one node; a thrown exception is that node's failure
	 * @param waitNanos how long to wait at most for the replies
	 * @param decided whether the replies so far decide the outcome (checked after each
	 * reply)
	 * @return the replies that arrived in time; the calling thread's interrupt ends the
	 * wait early, its flag kept
	 */
	<R> Replies<R> call(Function<Member, R> command, long waitNanos, Predicate<Replies<R>> decided) {
		Replies<R> replies = new Replies<>(this.nodes, this.executor, this.runtime);
		for (int i = 0; i < this.nodes.size(); i++) {
			int index = i;
			Member node = this.nodes.get(i);
			try {
				this.executor.execute(() -> {
					try {
						replies.answer(index, command.apply(node), null);
					}
					catch (RuntimeException ex) {
						replies.answer(index, null, ex);
					}
					catch (Error ex) {
						replies.answer(index, null,
								new IllegalStateException("The command failed on " + node.name(), ex));
						throw ex;
					}
				});
			}
			catch (RejectedExecutionException ex) {
				replies.answer(index, null, new IllegalStateException("The quorum lock store is closed", ex));
			}
		}
		replies.await(this.runtime.nanoTime() + waitNanos, decided);
		return replies;
	}

	/**
	 * Takes no more commands and waits for those in flight, at most {@code waitNanos}.
	 */
	void close(long waitNanos) {
		this.executor.shutdown();
		this.executor.awaitTermination(waitNanos);
	}

	@Override
	public void close() {
		close(0);
	}

	TaskPool executor() {
		return this.executor;
	}

	EngineRuntime runtime() {
		return this.runtime;
	}

	/**
	 * The replies of one {@link #call}, one slot per node: a reply, a failure, or nothing
	 * yet. A snapshot is taken by the caller only after its wait ended; late replies
	 * still land in the slots but the caller has decided.
	 */
	static final class Replies<R> {

		private final List<Member> nodes;

		private final TaskPool executor;

		private final EngineRuntime runtime;

		private final Object[] replies;

		private final RuntimeException[] failures;

		private final ReentrantLock lock = new ReentrantLock();

		/** The thread waiting for the replies, unparked by each one. */
		private volatile @Nullable Thread waiting;

		private final boolean[] done;

		private int answered;

		private @Nullable Consumer<Member> followUp;

		private Replies(List<Member> nodes, TaskPool executor, EngineRuntime runtime) {
			this.nodes = nodes;
			this.executor = executor;
			this.runtime = runtime;
			this.done = new boolean[nodes.size()];
			this.replies = new Object[nodes.size()];
			this.failures = new RuntimeException[nodes.size()];
		}

		private void answer(int index, @Nullable R reply, @Nullable RuntimeException failure) {
			Consumer<Member> then;
			this.lock.lock();
			try {
				this.replies[index] = reply;
				this.failures[index] = failure;
				this.done[index] = true;
				this.answered++;
				then = this.followUp;
			}
			finally {
				this.lock.unlock();
			}
			Thread waiting = this.waiting;
			if (waiting != null) {
				this.runtime.unpark(waiting);
			}
			if (then != null) {
				runQuietly(then, this.nodes.get(index));
			}
		}

		/**
		 * Runs {@code command} on every node right after its command of this call ended
		 * (at once for nodes that answered already): on one node, the follow-up never
		 * overtakes the command, also when the caller stopped waiting for it. Not waited
		 * for.
		 */
		void afterEach(Consumer<Member> command) {
			List<Member> ready = new ArrayList<>();
			this.lock.lock();
			try {
				this.followUp = command;
				for (int i = 0; i < this.done.length; i++) {
					if (this.done[i]) {
						ready.add(this.nodes.get(i));
					}
				}
			}
			finally {
				this.lock.unlock();
			}
			for (Member node : ready) {
				try {
					this.executor.execute(() -> runQuietly(command, node));
				}
				catch (RejectedExecutionException ex) {
					return;
				}
			}
		}

		private static void runQuietly(Consumer<Member> command, Member node) {
			try {
				command.accept(node);
			}
			catch (RuntimeException ex) {
				// A clean-up: the lease covers what it did not do.
			}
		}

		private void await(long deadlineNanos, Predicate<Replies<R>> decided) {
			this.waiting = Thread.currentThread();
			try {
				while (true) {
					this.lock.lock();
					try {
						if (this.answered >= this.replies.length || decided.test(this)) {
							return;
						}
					}
					finally {
						this.lock.unlock();
					}
					long left = deadlineNanos - this.runtime.nanoTime();
					if (left <= 0 || Thread.currentThread().isInterrupted()) {
						return;
					}
					// Each answer unparks this thread (also one that came before it
					// parked).
					this.runtime.park(this, left);
				}
			}
			finally {
				this.waiting = null;
			}
		}

		/** The replies of the nodes that answered so far, in node order. */
		List<R> answers() {
			this.lock.lock();
			try {
				List<R> answers = new ArrayList<>();
				for (Object reply : this.replies) {
					if (reply != null) {
						@SuppressWarnings("unchecked")
						R typed = (R) reply;
						answers.add(typed);
					}
				}
				return answers;
			}
			finally {
				this.lock.unlock();
			}
		}

		/** How many nodes answered with a reply of {@code type}. */
		int count(Class<?> type) {
			return (int) answers().stream().filter(type::isInstance).count();
		}

		/** The first failure a node threw that is not an unknown outcome, if any. */
		@Nullable RuntimeException mistake() {
			this.lock.lock();
			try {
				for (RuntimeException failure : this.failures) {
					if (failure != null && !outcomeUnknown(failure)) {
						return failure;
					}
				}
				return null;
			}
			finally {
				this.lock.unlock();
			}
		}

		/**
		 * Whether a node's failure leaves the outcome unknown: as for a single Redis, and
		 * also when the client refused the command itself (Lettuce's plain
		 * {@code RedisException}, e.g. "not connected" while a node is down and commands
		 * are rejected instead of queued), unlike an error reply of Redis
		 * ({@code RedisCommandExecutionException}, e.g. {@code NOPERM}).
		 */
		static boolean outcomeUnknown(RuntimeException failure) {
			if (RedisFailures.outcomeUnknown(failure)) {
				return true;
			}
			for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
				if (cause.getClass().getName().equals("io.lettuce.core.RedisException")) {
					return true;
				}
			}
			return false;
		}

		/**
		 * The failure to report when the replies do not make a majority: names every node
		 * that did not answer as needed, and why; the nodes' exceptions are suppressed in
		 * it.
		 * @param what the operation, for the message
		 * @param needed how many nodes had to answer as needed
		 * @param counted which replies count
		 */
		DataAccessResourceFailureException noMajority(String what, int needed, Predicate<Object> counted) {
			this.lock.lock();
			try {
				StringBuilder message = new StringBuilder(what).append(": ");
				int count = 0;
				List<String> others = new ArrayList<>();
				List<RuntimeException> causes = new ArrayList<>();
				for (int i = 0; i < this.replies.length; i++) {
					Object reply = this.replies[i];
					String node = this.nodes.get(i).name();
					if (reply != null && counted.test(reply)) {
						count++;
					}
					else if (this.failures[i] != null) {
						others.add(node + " failed (" + RedisFailures.withReply(this.failures[i]) + ")");
						causes.add(this.failures[i]);
					}
					else if (reply instanceof Unknown unknown) {
						others.add(node + " failed (" + RedisFailures.withReply(unknown.cause()) + ")");
						causes.add(unknown.cause());
					}
					else if (reply != null) {
						others.add(node + " answered " + reply.getClass().getSimpleName());
					}
					else {
						others.add(node + " did not answer in time");
					}
				}
				message.append(count + " of " + this.replies.length + " Redis nodes, a majority is " + needed);
				if (!others.isEmpty()) {
					message.append("; ").append(String.join("; ", others));
				}
				DataAccessResourceFailureException failure = new DataAccessResourceFailureException(message.toString());
				causes.forEach(failure::addSuppressed);
				return failure;
			}
			finally {
				this.lock.unlock();
			}
		}

	}

}

package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.runtime.TaskPool;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The renewals of locks with long leases, for {@link LockRenewer} and for the holds of
 * the reactive engine ({@link AsyncHold}): in batches, so that 100,000 held locks cost a
 * few round trips per sweep instead of a scheduled task, a thread hop and a round trip
 * each.
 * <p>
 * A lock renewed less often than twice a sweep period waits in the bucket of its due time
 * (one bucket per {@link #SWEEP_NANOS} of due times). A sweep every {@link #SWEEP_NANOS}
 * takes the buckets that start before the next sweep, so each lock is renewed up to two
 * periods early, never late, and no sweep looks at a lock that is not due (a full scan of
 * 100,000 held locks twice a second cost more CPU than their renewals). It hands the
 * locks due on in batches of {@link #BATCH}, each to be one
 * {@link io.github.distlock.store.LockStore#extendAll} call ({@link RenewalBatch} on the
 * renewal threads, {@link AsyncRenewalBatch} without blocking). The sweep itself runs on
 * a thread that never waits for a reply. A lock renewed more often, and every retry after
 * a failed renewal, is renewed alone, as scheduled by its renewer. Adding a lock costs no
 * task and no wake-up: most locks are released before their first renewal, and their
 * bucket drops them in groups (see {@link Bucket}).
 *
 * @param <T> the locks renewed
 */
final class RenewalSweep<T extends RenewalSweep.Swept> {

	/**
	 * Period of the sweep and width of a bucket; a lock is renewed at most two of them
	 * early.
	 */
	static final long SWEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

	/**
	 * Locks per {@code extendAll} call: large enough that a batch costs one round trip
	 * per few hundred locks, small enough that the renewal threads share a sweep's work.
	 */
	static final int BATCH = 512;

	/** Fewer cancellations in a bucket than this never start a drop ({@link Bucket}). */
	static final int MIN_DROP = 256;

	/**
	 * Where the sweep runs: a thread that never waits for a reply (the deadline guard's,
	 * the reactive timer), so that sweeps come on time while renewals wait for theirs.
	 */
	private final TaskPool sweeper;

	/**
	 * Sends one batch, or throws {@link RejectedExecutionException} once shut down.
	 */
	private final Consumer<List<Due<T>>> batches;

	private final EngineRuntime runtime;

	/** The locks to renew, by bucket of their due time. */
	private final ConcurrentSkipListMap<Long, Bucket<T>> buckets = new ConcurrentSkipListMap<>();

	private final AtomicBoolean sweeping = new AtomicBoolean();

	/** Sweeps scheduled or running: at most one waits at a time. */
	private final AtomicInteger sweepsPending = new AtomicInteger();

	RenewalSweep(TaskPool sweeper, EngineRuntime runtime, Consumer<List<Due<T>>> batches) {
		this.sweeper = sweeper;
		this.runtime = runtime;
		this.batches = batches;
	}

	/**
	 * Whether a renewal due in {@code delayNanos} is left to the sweep rather than
	 * scheduled on its own.
	 */
	static boolean sweeps(long delayNanos) {
		return delayNanos > 2 * SWEEP_NANOS;
	}

	/**
	 * {@code held} is to be renewed in {@code delayNanos}, for {@code generation};
	 * nothing if a newer generation is scheduled already.
	 */
	void renewIn(T held, long delayNanos, int generation) {
		long due = this.runtime.nanoTime() + delayNanos;
		if (!held.sweepDue(due, generation)) {
			return;
		}
		Bucket<T> bucket;
		do {
			bucket = this.buckets.computeIfAbsent(Math.floorDiv(due, SWEEP_NANOS),
					(slot) -> new Bucket<>(this.sweeper));
			bucket.add(held);
			// A sweep that took the bucket meanwhile may have drained it before the
			// offer: offered again (twice is harmless, a renewal is claimed once).
		}
		while (bucket.taken);
		// Released, lost or extended, it leaves the bucket (see Bucket#cancel).
		held.renewal(bucket, generation);
		if (!this.sweeping.get() && this.sweeping.compareAndSet(false, true)) {
			scheduleSweep();
		}
	}

	/** The next sweep, a sweep period from now, as long as the pool runs. */
	private void scheduleSweep() {
		if (this.sweeper.isShutdown()) {
			return;
		}
		this.sweepsPending.incrementAndGet();
		try {
			this.sweeper.schedule(this::sweepAndScheduleNext, SWEEP_NANOS);
		}
		catch (RejectedExecutionException ex) {
			// Shut down meanwhile.
			this.sweepsPending.decrementAndGet();
		}
	}

	private void sweepAndScheduleNext() {
		try {
			sweep();
		}
		finally {
			// The next one counted before this one ends.
			scheduleSweep();
			this.sweepsPending.decrementAndGet();
		}
	}

	private void sweep() {
		long now = this.runtime.nanoTime();
		// Every bucket starting before the next sweep: due by two periods from now.
		long lastSlot = Math.floorDiv(now + SWEEP_NANOS, SWEEP_NANOS);
		long horizon = now + 2 * SWEEP_NANOS;
		List<Due<T>> due = new ArrayList<>();
		for (Map.Entry<Long, Bucket<T>> first = this.buckets.firstEntry(); first != null
				&& first.getKey() <= lastSlot; first = this.buckets.firstEntry()) {
			if (!this.buckets.remove(first.getKey(), first.getValue())) {
				continue;
			}
			Bucket<T> bucket = first.getValue();
			bucket.taken = true;
			for (T held = bucket.locks.poll(); held != null; held = bucket.locks.poll()) {
				int generation = held.isActive() ? held.claimSweepRenewal(horizon) : -1;
				if (generation >= 0) {
					due.add(new Due<>(held, generation));
				}
			}
		}
		for (int from = 0; from < due.size(); from += BATCH) {
			try {
				this.batches.accept(due.subList(from, Math.min(from + BATCH, due.size())));
			}
			catch (RejectedExecutionException ex) {
				// Shut down meanwhile: nothing is renewed any more.
				return;
			}
		}
	}

	/** Sweeps scheduled or running, counted by the pool as pending tasks. */
	int sweepsPending() {
		return this.sweepsPending.get();
	}

	/** The locks still held whose renewal the sweep has yet to send. */
	long awaiting() {
		Set<T> waiting = Collections.newSetFromMap(new IdentityHashMap<>());
		this.buckets.values()
			.forEach((bucket) -> bucket.locks.stream()
				.filter((held) -> held.isActive() && held.sweepRenewalPending())
				.forEach(waiting::add));
		return waiting.size();
	}

	/** Locks in the buckets, counted one by one (for tests). */
	long entries() {
		return this.buckets.values().stream().mapToLong((bucket) -> bucket.locks.size()).sum();
	}

	/**
	 * The locks due in one period; taken by the sweep once, then closed.
	 * <p>
	 * It is also each lock's scheduled renewal ({@link Swept#renewal}), cancelled when
	 * the lock is released, lost or extended. Most locks are released long before their
	 * first renewal (a third of the lease): the bucket drops them when as many have left
	 * as remain, so that it keeps at most about twice its live locks, not every lock
	 * acquired in the 10 s before a 30 s lease's first renewal. Each drop scans the
	 * bucket once on the sweep's thread; it comes after as many cancellations as the
	 * locks it keeps, so it costs O(1) per lock.
	 */
	private static final class Bucket<T extends Swept> implements TaskPool.Scheduled {

		final ConcurrentLinkedQueue<T> locks = new ConcurrentLinkedQueue<>();

		/** Set by the sweep that took it, before it drains it. */
		volatile boolean taken;

		private final TaskPool sweeper;

		/** Locks added since the last drop, or kept by it. */
		private final AtomicInteger added = new AtomicInteger();

		/** Cancellations since the last drop. */
		private final AtomicInteger cancelled = new AtomicInteger();

		private final AtomicBoolean dropping = new AtomicBoolean();

		Bucket(TaskPool sweeper) {
			this.sweeper = sweeper;
		}

		void add(T held) {
			this.locks.offer(held);
			this.added.incrementAndGet();
		}

		/** One of its locks was released, lost or extended. */
		@Override
		public void cancel() {
			int cancelled = this.cancelled.incrementAndGet();
			if (cancelled >= MIN_DROP && 2 * cancelled >= this.added.get() && !this.taken
					&& this.dropping.compareAndSet(false, true)) {
				try {
					this.sweeper.execute(this::dropEnded);
				}
				catch (RejectedExecutionException ex) {
					// Shut down: the buckets go with the engine.
				}
			}
		}

		/**
		 * Drops the locks no longer held; a lock extended meanwhile stays until the sweep
		 * finds its renewal stale.
		 */
		private void dropEnded() {
			try {
				this.cancelled.set(0);
				this.locks.removeIf((held) -> !held.isActive());
				this.added.set(this.locks.size());
			}
			finally {
				this.dropping.set(false);
			}
		}

	}

	/**
	 * A lock the sweep renews: its renewal is due at one time for one generation of its
	 * lease (a change of the lease makes the older generations stale).
	 */
	interface Swept {

		/** Whether it is neither released nor lost. */
		boolean isActive();

		/**
		 * The sweep renews it at {@code dueNanos}, for the lease of {@code generation},
		 * unless a newer generation is due already (see {@link DueTime#set}).
		 * @return whether it is due for {@code generation} now
		 */
		boolean sweepDue(long dueNanos, int generation);

		/** Takes its renewal when due by {@code horizonNanos}: its generation, or -1. */
		int claimSweepRenewal(long horizonNanos);

		/** Whether the sweep is to renew it (not while renewed alone or sent). */
		boolean sweepRenewalPending();

		/**
		 * Its next renewal, for the lease of {@code generation}: cancelled when it is
		 * released, lost or its lease changed, or at once if that happened already.
		 */
		void renewal(TaskPool.Scheduled renewal, int generation);

	}

	/**
	 * When the sweep renews a lock, and for which generation of its lease: the state
	 * behind {@link Swept#sweepDue}, {@link Swept#claimSweepRenewal} and
	 * {@link Swept#sweepRenewalPending}, guarded by the lock's own monitor.
	 */
	static final class DueTime {

		/** {@link Long#MAX_VALUE}: not by the sweep. */
		private long dueNanos = Long.MAX_VALUE;

		private int generation;

		/**
		 * The renewal of {@code generation} is due at {@code dueNanos}. Refused for a
		 * generation older than the last one set: the renewal that scheduled it read its
		 * generation before a change of the lease (an {@code extend} between a batch
		 * freeing its lease locks and scheduling their next renewals), whose own renewal
		 * it must not overwrite, or nothing would renew the lock again.
		 * @return whether it was set
		 */
		boolean set(long dueNanos, int generation) {
			if (generation - this.generation < 0) {
				return false;
			}
			this.dueNanos = dueNanos;
			this.generation = generation;
			return true;
		}

		void clear() {
			this.dueNanos = Long.MAX_VALUE;
		}

		/** Takes the renewal when due by {@code horizonNanos}: its generation, or -1. */
		int claim(long horizonNanos) {
			if (this.dueNanos == Long.MAX_VALUE || this.dueNanos - horizonNanos > 0) {
				return -1;
			}
			this.dueNanos = Long.MAX_VALUE;
			return this.generation;
		}

		boolean pending() {
			return this.dueNanos != Long.MAX_VALUE;
		}

	}

	/** A lock found due by the sweep, for the lease of {@code generation}. */
	record Due<T>(T held, int generation) {

	}

}

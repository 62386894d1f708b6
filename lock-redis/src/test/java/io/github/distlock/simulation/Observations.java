package io.github.distlock.simulation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checker of a world: what the clients observed, judged against the store's
 * {@link Truth} as it happens.
 * <ul>
 * <li><b>Exclusion.</b> Whenever a handle says {@code isHeld()}, the store holds the lock
 * for that hold's owner; and the fenced register of the lock id accepts the hold's write
 * (a rejection means a later token wrote while this hold still believed it held).</li>
 * <li><b>Fencing.</b> Tokens strictly increase in the order holds began, per id.</li>
 * <li><b>Shared holds</b> (READ, permits): a hold that says {@code isHeld()} is one of
 * the store's shared holds of the id (so never beside an exclusive holder); never more
 * holders than permits; only exclusive holds write to the fenced register. No shared hold
 * begins once a writer has competed in the store for the bound in a calm stretch (no
 * writer starvation).</li>
 * <li><b>No false loss.</b> A loss reported (to the engine's {@code LockLostListener} or
 * {@code LockLostException}) while the store still held the lock for the owner, in a hold
 * that no fault disturbed, is false.</li>
 * <li><b>Liveness</b> (in calm stretches): a lock is not free for longer than the bound
 * while threads wait for it; it is not held for longer than the bound for an owner that
 * no open handle or operation in progress accounts for (a ghost); a {@code tryLock}
 * returns within its wait time plus a bound; nothing is held after every instance shut
 * down.</li>
 * </ul>
 */
final class Observations {

	private final Simulation world;

	private final Owners owners;

	private final Truth truth;

	private final Faults faults;

	private final List<String> violations = new ArrayList<>();

	private final Map<String, Long> counts = new LinkedHashMap<>();

	/** Per lock id: the last token a hold began with, and the fenced register's value. */
	private final Map<String, long[]> fences = new HashMap<>();

	Observations(Simulation world, Owners owners, Truth truth, Faults faults) {
		this.world = world;
		this.owners = owners;
		this.truth = truth;
		this.faults = faults;
	}

	void count(String what) {
		if (this.world.isOver()) {
			return;
		}
		this.counts.merge(what, 1L, Long::sum);
	}

	Map<String, Long> counts() {
		return this.counts;
	}

	List<String> violations() {
		return this.violations;
	}

	void violation(String what) {
		if (this.world.isOver()) {
			return;
		}
		this.world.trace().log("CHECKER", "VIOLATION " + what);
		if (this.violations.size() < 20) {
			this.violations.add(this.world.trace().time(this.world.now()) + " " + what);
		}
	}

	/** Permits per lock id held shared (0 for READ). */
	private final Map<String, Integer> permits = new HashMap<>();

	/**
	 * The writers waiting for ids held shared, in the order they began, with the time
	 * since which each competes in the store: since it began, or since a writer of its
	 * instance ahead of it stopped waiting or an exclusive hold of its instance ended
	 * (until then it waits in its instance's local queue, not queued in the store).
	 */
	private final Map<SimThread, Writer> writers = new LinkedHashMap<>();

	private long boundNanos = Long.MAX_VALUE;

	private record Writer(String lockId, long[] since) {
	}

	/** Ids held shared: {@code permits} per id (0 for READ). */
	void shared(Map<String, Integer> permits, long boundNanos) {
		this.permits.putAll(permits);
		this.boundNanos = boundNanos;
	}

	/** The store holds {@code lockId} for {@code count} owners now. */
	void holdersCounted(String lockId, int count) {
		Integer limit = this.permits.get(lockId);
		if (limit != null && limit > 0 && count > limit) {
			violation("'" + lockId + "' has " + count + " holders, more than its " + limit + " permits");
		}
	}

	/** {@code writer} began waiting for the exclusive lock of an id held shared. */
	void writerWaiting(SimThread writer, String lockId) {
		this.writers.put(writer, new Writer(lockId, new long[] { this.world.now() }));
	}

	/** {@code writer} stopped waiting: the writers of its instance behind it move up. */
	void writerDone(SimThread writer) {
		Writer done = this.writers.remove(writer);
		if (done != null) {
			movedUp(writer.process(), done.lockId());
		}
	}

	/** An exclusive hold of {@code lockId} by {@code holder} ended. */
	void exclusiveHoldEnded(SimThread holder, String lockId) {
		movedUp(holder.process(), lockId);
	}

	private void movedUp(SimProcess process, String lockId) {
		this.writers.forEach((thread, writer) -> {
			if (thread.process() == process && writer.lockId().equals(lockId)) {
				writer.since()[0] = this.world.now();
			}
		});
	}

	/**
	 * A shared hold of {@code lockId} began: its token counts for the fencing order (an
	 * exclusive hold's must be greater). It must not pass a writer that has competed in
	 * the store for the bound in a calm stretch: that writer is queued there, and new
	 * shared holds wait behind it. (Shared holds overlap, so their replies may arrive in
	 * any order: their own tokens are not checked against each other.)
	 */
	void sharedHoldBegan(String who, String lockId, long token) {
		long[] fence = this.fences.computeIfAbsent(lockId, (id) -> new long[2]);
		fence[0] = Math.max(fence[0], token);
		count("shared holds");
		long now = this.world.now();
		this.writers.forEach((thread, writer) -> {
			long since = writer.since()[0];
			if (writer.lockId().equals(lockId) && now - since > this.boundNanos && this.faults.calmSince(since)
					&& !thread.process().isCrashed()) {
				violation(who + "'s shared hold of '" + lockId + "' began while " + thread.name + " had competed "
						+ (now - since) / 1_000_000 + " ms for the exclusive lock: the writer is starved");
			}
		});
	}

	/**
	 * A handle of a shared hold said {@code isHeld()}: the store must hold the id shared
	 * for its owner (and so for no exclusive holder).
	 */
	void believedHeldShared(String who, String lockId, long token) {
		String owner = this.owners.ownerOf(lockId, token);
		Set<String> holders = this.truth.holders(lockId);
		if (owner == null || !holders.contains(owner) || this.truth.holder(lockId) != null) {
			violation(who + " believes it holds '" + lockId + "' shared (token " + token + ", owner " + owner
					+ ") while the store holds it for " + holders);
		}
		holdersCounted(lockId, holders.size());
		count("shared reads");
	}

	/**
	 * {@code who} sent an acquire of {@code owner}: never after a release of that token
	 * was answered. The store refuses a released token as a late copy (its receipt), so
	 * an acquisition that sends one again waits for nothing (issue 39, 4: a queued
	 * acquisition re-sent its released token until the receipt expired).
	 */
	void acquireSent(String who, String owner) {
		if (this.owners.wasReleased(owner)) {
			violation(who + " sent an acquire of " + owner + ", whose release was answered before");
		}
	}

	/** A hold began: its token must be greater than every earlier one of the id. */
	void holdBegan(String who, String lockId, long token) {
		long[] fence = this.fences.computeIfAbsent(lockId, (id) -> new long[2]);
		if (token <= fence[0]) {
			violation("fencing token " + token + " of " + who + " on '" + lockId + "' is not greater than the one"
					+ " before it, " + fence[0]);
		}
		fence[0] = Math.max(fence[0], token);
		count("holds");
	}

	/**
	 * A handle said {@code isHeld()}: the store must hold the lock for its owner, and the
	 * hold writes to the fenced register.
	 */
	void believedHeld(String who, String lockId, long token) {
		String owner = this.owners.ownerOf(lockId, token);
		String holder = this.truth.holder(lockId);
		if (owner == null || !owner.equals(holder)) {
			violation(who + " believes it holds '" + lockId + "' (token " + token + ", owner " + owner
					+ ") while the store holds it for " + holder);
		}
		long[] fence = this.fences.computeIfAbsent(lockId, (id) -> new long[2]);
		if (token < fence[1]) {
			violation("the fenced register of '" + lockId + "' rejected the write of " + who + " (token " + token
					+ ") that believed it held the lock: token " + fence[1] + " wrote before");
		}
		fence[1] = Math.max(fence[1], token);
		count("writes");
	}

	/**
	 * How long after the store stopped holding an open auto-renewed hold for its owner
	 * the engine has to tell its {@code LockLostListener}: the local deadline comes
	 * before the key's (the lease counts from the send), but an {@code extend} in flight
	 * may hold the lease for a command timeout (1 s) before its failure shortens the
	 * deadline to one already past (seed 234: the listener 1.19 s after the key went);
	 * then a renewal's round trip.
	 */
	static final long SILENT_LOSS_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(2);

	/** Open auto-renewed exclusive holds, by lock id and token. */
	private final Map<String, AutoRenewedHold> autoRenewed = new LinkedHashMap<>();

	private static final class AutoRenewedHold {

		final Instance instance;

		final String lockId;

		final long token;

		final String owner;

		/** When the store was first seen not holding it for its owner; 0 if it was. */
		long goneAt;

		/** The listener was told, or this hold was reported silent already. */
		boolean told;

		AutoRenewedHold(Instance instance, String lockId, long token, String owner) {
			this.instance = instance;
			this.lockId = lockId;
			this.token = token;
			this.owner = owner;
		}

	}

	/** An auto-renewed exclusive hold of {@code owner} began. */
	void autoRenewedHoldOpened(Instance instance, String lockId, long token, String owner) {
		this.autoRenewed.put(lockId + "#" + token, new AutoRenewedHold(instance, lockId, token, owner));
	}

	/** The holder closed it (whatever close said). */
	void autoRenewedHoldClosed(String lockId, long token) {
		this.autoRenewed.remove(lockId + "#" + token);
	}

	/**
	 * Every loss is reported: an open auto-renewed hold whose lock the store no longer
	 * holds for its owner must have been reported to its instance's
	 * {@code LockLostListener} within {@link #SILENT_LOSS_NANOS}, faults or not (no fault
	 * makes that impossible while the instance runs: a renewal finds the key gone, or
	 * fails until the lease ends, and either is a loss). Not for instances shutting down
	 * or crashed. Looked at with the monitor's period.
	 */
	void checkSilentLosses() {
		long now = this.world.now();
		for (AutoRenewedHold hold : this.autoRenewed.values()) {
			if (hold.told || !hold.instance.isAlive()) {
				continue;
			}
			if (hold.owner.equals(this.truth.holder(hold.lockId))) {
				hold.goneAt = 0;
			}
			else if (hold.goneAt == 0) {
				hold.goneAt = now;
			}
			else if (now - hold.goneAt > SILENT_LOSS_NANOS) {
				hold.told = true;
				violation(hold.instance.process + " lost '" + hold.lockId + "' (token " + hold.token + ", owner "
						+ hold.owner + ", auto-renewed, open): the store no longer held it for that owner since "
						+ this.world.trace().time(hold.goneAt) + ", and no LockLostListener call came (a silent loss)");
			}
		}
	}

	/** A loss was reported for the hold with {@code token}. */
	void lossReported(SimProcess process, String lockId, long token, String how) {
		count("losses reported");
		AutoRenewedHold hold = this.autoRenewed.get(lockId + "#" + token);
		if (hold != null && hold.instance.process == process && how.startsWith("LockLostListener")) {
			hold.told = true;
		}
		String owner = this.owners.ownerOf(lockId, token);
		String holder = this.truth.holder(lockId);
		Long began = this.holdsBegan.get(lockId + "#" + token);
		if (owner != null && owner.equals(holder) && began != null && this.faults.calmSince(began)
				&& !how.contains("shut down")) {
			violation(process + " reported '" + lockId + "' (token " + token + ") lost (" + how
					+ ") while the store held it for that owner, in a calm hold");
		}
	}

	private final Map<String, Long> holdsBegan = new HashMap<>();

	void holdBeganAt(String lockId, long token, long atNanos) {
		this.holdsBegan.put(lockId + "#" + token, atNanos);
	}

	/**
	 * A {@code tryLock} returned after {@code tookNanos} with a wait of
	 * {@code waitNanos}.
	 */
	void tryLockEnded(String who, String lockId, long waitNanos, long tookNanos, long slackNanos, String outcome) {
		count("tryLock " + outcome);
		if (tookNanos > waitNanos + slackNanos) {
			violation(who + "'s tryLock('" + lockId + "', " + waitNanos / 1_000_000 + " ms) took "
					+ tookNanos / 1_000_000 + " ms (" + outcome + ")");
		}
	}

}

package io.github.distlock.simulation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The checker of a world: what the clients observed, judged against the store's
 * {@link Truth} as it happens.
 * <ul>
 * <li><b>Exclusion.</b> Whenever a handle says {@code isHeld()}, the store holds the lock
 * for that hold's owner; and the fenced register of the lock id accepts the hold's write
 * (a rejection means a later token wrote while this hold still believed it held).</li>
 * <li><b>Fencing.</b> Tokens strictly increase in the order holds began, per id.</li>
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

	/** A loss was reported for the hold with {@code token}. */
	void lossReported(SimProcess process, String lockId, long token, String how) {
		count("losses reported");
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

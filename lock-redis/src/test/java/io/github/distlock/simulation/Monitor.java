package io.github.distlock.simulation;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Looks at the store every few milliseconds of virtual time, for the liveness checks of
 * calm stretches: a lock free while threads wait for it, and a lock held for an owner
 * that nobody accounts for (a ghost: a grant to a waiter that left, a late acquire, a
 * lock renewed for a thread that is gone), each for longer than the bound. At any time: a
 * lock held for an owner whose release was answered (a late copy of its acquire took
 * effect).
 */
final class Monitor {

	private static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	private final Simulation world;

	private final Truth truth;

	private final Owners owners;

	private final Waiting waiting;

	private final Faults faults;

	private final Observations observations;

	private final List<String> lockIds;

	private final long boundNanos;

	private final Map<String, long[]> since = new HashMap<>();

	private final Set<String> reportedEnded = new HashSet<>();

	private boolean stopped;

	Monitor(Simulation world, Truth truth, Owners owners, Waiting waiting, Faults faults, Observations observations,
			List<String> lockIds, long boundNanos) {
		this.world = world;
		this.truth = truth;
		this.owners = owners;
		this.waiting = waiting;
		this.faults = faults;
		this.observations = observations;
		this.lockIds = lockIds;
		this.boundNanos = boundNanos;
	}

	void start() {
		this.world.after(PERIOD_NANOS, "monitor", this::look);
	}

	void stop() {
		this.stopped = true;
	}

	private void look() {
		if (this.stopped) {
			return;
		}
		long now = this.world.now();
		boolean calm = this.faults.calm();
		for (String lockId : this.lockIds) {
			// [0]: free while waited for since, [1]: held by a ghost since; 0 = not now.
			long[] times = this.since.computeIfAbsent(lockId, (id) -> new long[2]);
			Set<String> holders = this.truth.holders(lockId);
			for (String holder : holders) {
				if (this.owners.recentlyEnded(lockId, holder) && !this.reportedEnded.contains(holder)) {
					// At any time, faults or not: a late copy of an ended owner's acquire
					// must change nothing.
					this.reportedEnded.add(holder);
					this.observations.violation("'" + lockId + "' is held for " + holder + " (of "
							+ this.owners.processOf(holder) + "), whose release was answered before");
				}
			}
			this.observations.holdersCounted(lockId, holders.size());
			boolean freeWhileWaited = calm && holders.isEmpty() && this.waiting.waiters(lockId, this.owners) > 0;
			times[0] = check(times[0], freeWhileWaited, now, "'" + lockId + "' was free while "
					+ this.waiting.waiters(lockId, this.owners) + " thread(s) waited for it");
			String ghost = calm ? holders.stream()
				.filter((holder) -> !this.owners.accountedFor(lockId, holder))
				.findFirst()
				.orElse(null) : null;
			times[1] = check(times[1], ghost != null, now, "'" + lockId + "' was held for " + ghost + " (of "
					+ this.owners.processOf(ghost) + "), which no open handle or operation accounts for");
		}
		this.observations.checkSilentLosses();
		this.world.after(PERIOD_NANOS, "monitor", this::look);
	}

	private long check(long since, boolean now, long nowNanos, String what) {
		if (!now) {
			return 0;
		}
		if (since == 0) {
			return nowNanos;
		}
		if (since > 0 && nowNanos - since > this.boundNanos) {
			this.observations
				.violation(what + " for more than " + TimeUnit.NANOSECONDS.toMillis(this.boundNanos) + " ms");
			// Reported once per stretch.
			return -1;
		}
		return since;
	}

}

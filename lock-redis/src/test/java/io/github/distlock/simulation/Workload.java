package io.github.distlock.simulation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.LockService;

/**
 * The threads of an instance: each, until the workload ends, takes a random lock id with
 * a random wait (from none to seconds), a fixed lease or an auto-renewed one, fair or not
 * (fair locks on a single node only); holds it for a random time, longer than its lease
 * now and then, checking it still holds it and writing to the id's fenced register every
 * so often, extending it now and then; and closes it. Every step goes to the
 * {@link Observations}.
 */
final class Workload {

	private static final List<Duration> WAITS = List.of(Duration.ZERO, Duration.ofMillis(50), Duration.ofMillis(300),
			Duration.ofSeconds(2), Duration.ofSeconds(5));

	private final Simulation world;

	private final Owners owners;

	private final Observations observations;

	private final Waiting waiting;

	private final List<String> lockIds;

	private final boolean fairAllowed;

	private final long slackNanos;

	private final boolean multiKey;

	private final MultiKeyWorkload severalAtOnce;

	/** Permits per id held shared (0 for READ); empty unless the world has shared ids. */
	private final Map<String, Integer> sharedIds;

	/**
	 * Whether extends cross the batching threshold and exclusive holds are kept past
	 * their leases (issue 39's reach); else the workload of before, draw for draw.
	 */
	private final boolean reach;

	Workload(Simulation world, Owners owners, Observations observations, Waiting waiting, List<String> lockIds,
			boolean fairAllowed, long slackNanos, boolean multiKey) {
		this(world, owners, observations, waiting, lockIds, fairAllowed, slackNanos, multiKey, Map.of(), false);
	}

	/**
	 * @param sharedIds ids also held shared: READ (0) or permits of a semaphore of that
	 * many, beside exclusive holds
	 * @param reach whether extends cross the batching threshold and exclusive holds are
	 * kept past their leases
	 */
	Workload(Simulation world, Owners owners, Observations observations, Waiting waiting, List<String> lockIds,
			boolean fairAllowed, long slackNanos, boolean multiKey, Map<String, Integer> sharedIds, boolean reach) {
		this.sharedIds = sharedIds;
		this.reach = reach;
		this.world = world;
		this.owners = owners;
		this.observations = observations;
		this.waiting = waiting;
		this.lockIds = lockIds;
		this.fairAllowed = fairAllowed;
		this.slackNanos = slackNanos;
		this.multiKey = multiKey;
		this.severalAtOnce = new MultiKeyWorkload(world, owners, observations, this);
	}

	/** The body of one workload thread of {@code instance}, until {@code endNanos}. */
	void run(Instance instance, long endNanos) {
		Random random = this.world.random();
		SimThread me = this.world.currentThread();
		while (this.world.now() < endNanos && instance.isAlive()) {
			if (this.multiKey && random.nextInt(3) == 0) {
				List<String> ids = new ArrayList<>(this.lockIds);
				Collections.shuffle(ids, random);
				ids = ids.subList(0, 2 + random.nextInt(ids.size() - 1));
				Duration wait = WAITS.get(random.nextInt(WAITS.size()));
				Duration lease = (random.nextInt(3) == 0) ? Duration.ofMillis(300 + random.nextInt(5700)) : null;
				this.severalAtOnce.tryLockAll(me, instance.engine, ids, wait, lease)
					.ifPresent((handle) -> this.severalAtOnce.hold(me, handle, random));
				pause(random.nextInt(200));
				continue;
			}
			String lockId = this.lockIds.get(random.nextInt(this.lockIds.size()));
			Integer permits = this.sharedIds.get(lockId);
			boolean shared = permits != null && random.nextInt(3) != 0;
			boolean fair = !shared && this.fairAllowed && random.nextInt(4) == 0;
			Duration wait = WAITS.get(random.nextInt(WAITS.size()));
			Duration lease = (random.nextInt(3) == 0) ? Duration.ofMillis(300 + random.nextInt(5700)) : null;
			LockService service = shared ? ((permits == 0) ? instance.engine.read() : instance.engine.permits(permits))
					: fair ? instance.engine.fair() : instance.engine;
			if (permits != null && !shared) {
				this.observations.writerWaiting(me, lockId);
			}
			Optional<LockHandle> handle;
			try {
				handle = tryLock(me, service, lockId, wait, lease,
						(shared ? ((permits == 0) ? "READ " : permits + "-permit ") : "") + (fair ? "fair " : ""));
			}
			finally {
				this.observations.writerDone(me);
			}
			if (handle.isPresent()) {
				hold(me, instance, lockId, handle.get(), random, shared, lease == null);
			}
			pause(random.nextInt(200));
		}
	}

	private Optional<LockHandle> tryLock(SimThread me, LockService service, String lockId, Duration wait,
			Duration lease, String kind) {
		String what = kind + "tryLock('" + lockId + "', " + wait.toMillis() + " ms, "
				+ ((lease != null) ? lease.toMillis() + " ms" : "auto") + ")";
		return attempt(me, what, lockId, lockId, wait, "", () -> service.tryLock(lockId, wait, lease));
	}

	/**
	 * One acquisition, observed: traced, counted as an operation of {@code me}, as a wait
	 * for {@code waitingFor}, and its time held to {@code wait}.
	 * @param reported the lock id (or ids) the outcome is reported for
	 * @param kind what the outcome's count is prefixed with ({@code "multi-key "})
	 */
	Optional<LockHandle> attempt(SimThread me, String what, String waitingFor, String reported, Duration wait,
			String kind, Supplier<Optional<LockHandle>> acquisition) {
		this.world.trace().log(me.name, what);
		long start = this.world.now();
		this.owners.operationStarted(me);
		this.waiting.started(waitingFor, me);
		String outcome = "failed";
		try {
			Optional<LockHandle> handle = acquisition.get();
			outcome = handle.isPresent() ? "acquired" : "not acquired";
			return handle;
		}
		catch (LockNotAcquiredException ex) {
			outcome = "LockNotAcquiredException";
			this.world.trace().log(me.name, what + " failed: " + ex.getMessage());
			return Optional.empty();
		}
		catch (IllegalStateException ex) {
			// The instance shut down before the call.
			outcome = "refused: shut down";
			return Optional.empty();
		}
		catch (LockLostException ex) {
			outcome = "LockLostException";
			return Optional.empty();
		}
		finally {
			Thread.interrupted();
			this.waiting.ended(waitingFor, me);
			this.owners.operationEnded(me);
			if (me.isKilled()) {
				// A thread of a crashed process holds nothing, whatever the call
				// returned.
				return Optional.empty();
			}
			this.observations.tryLockEnded(me.name, reported, wait.toNanos(), this.world.now() - start, this.slackNanos,
					kind + outcome);
			this.world.trace().log(me.name, what + ": " + outcome);
		}
	}

	private void hold(SimThread me, Instance instance, String lockId, LockHandle handle, Random random, boolean shared,
			boolean autoRenewed) {
		long token = handle.fencingToken();
		String owner = this.owners.ownerOf(lockId, token);
		this.world.trace()
			.log(me.name,
					"holds '" + lockId + "'" + (shared ? " shared" : "") + ", token " + token + ", owner " + owner);
		if (shared) {
			this.observations.sharedHoldBegan(me.name, lockId, token);
		}
		else {
			this.observations.holdBegan(me.name, lockId, token);
		}
		this.observations.holdBeganAt(lockId, token, this.world.now());
		if (owner != null) {
			this.owners.opened(lockId, owner);
			if (autoRenewed && !shared) {
				this.observations.autoRenewedHoldOpened(instance, lockId, token, owner);
			}
		}
		// One exclusive hold in four lasts longer (up to 7 pauses of up to 2.5 s): past
		// an extended lease, so that a lock nothing renews any more runs out while held.
		// (Not shared holds: READ holds kept that long starve writers of their own
		// instance beyond the checker's bound.)
		int longest = (this.reach && !shared && random.nextInt(4) == 0) ? 2500 : 800;
		try {
			int checks = random.nextInt(6);
			// After an extend, now and then the hold goes on past the new lease (and the
			// silent-loss bound): a lock left unrenewed runs out while held.
			long keepUntil = 0;
			for (int i = 0; i <= checks || this.world.now() < keepUntil; i++) {
				if (handle.isHeld()) {
					believedHeld(me, lockId, token, shared);
				}
				if (random.nextInt(5) == 0 && handle.isHeld()) {
					Duration extended = extend(me, handle, random);
					if (this.reach && extended != null && !shared && random.nextBoolean()) {
						keepUntil = Math.max(keepUntil,
								this.world.now() + extended.toNanos() + Observations.SILENT_LOSS_NANOS + 500_000_000L);
					}
				}
				pause(random.nextInt(longest));
			}
			if (handle.isHeld()) {
				believedHeld(me, lockId, token, shared);
			}
		}
		finally {
			close(me, lockId, handle, token, owner, shared);
		}
	}

	private void believedHeld(SimThread me, String lockId, long token, boolean shared) {
		if (shared) {
			this.observations.believedHeldShared(me.name, lockId, token);
		}
		else {
			this.observations.believedHeld(me.name, lockId, token);
		}
	}

	/**
	 * Extends to a lease below the batching threshold (renewed on its own, a third of it
	 * apart: up to 3 s) or, in worlds of reach, as often above it (renewed by the sweep's
	 * batches: up to 6 s, the longest lease of a world).
	 * @return the new lease, or {@code null} if not extended
	 */
	private Duration extend(SimThread me, LockHandle handle, Random random) {
		Duration lease = Duration.ofMillis(!this.reach ? 200 + random.nextInt(3000)
				: random.nextBoolean() ? 200 + random.nextInt(2800) : 3100 + random.nextInt(2900));
		try {
			boolean extended = handle.extend(lease);
			this.world.trace().log(me.name, "extend(" + lease.toMillis() + " ms): " + extended);
			return extended ? lease : null;
		}
		catch (RuntimeException ex) {
			this.world.trace().log(me.name, "extend(" + lease.toMillis() + " ms) failed: " + ex);
			return null;
		}
	}

	private void close(SimThread me, String lockId, LockHandle handle, long token, String owner, boolean shared) {
		this.owners.operationStarted(me);
		// From here the holder hears of a loss from close() itself.
		this.observations.autoRenewedHoldClosed(lockId, token);
		try {
			handle.close();
			this.world.trace().log(me.name, "released '" + lockId + "', token " + token);
		}
		catch (LockLostException ex) {
			this.world.trace().log(me.name, "close: " + ex.getMessage());
			this.observations.lossReported(me.process(), lockId, token,
					"LockLostException at close: " + ex.getMessage());
		}
		catch (RuntimeException ex) {
			this.world.trace().log(me.name, "close failed: " + ex);
		}
		finally {
			Thread.interrupted();
			this.owners.operationEnded(me);
			if (owner != null) {
				this.owners.closed(lockId, owner);
			}
			if (!shared) {
				this.observations.exclusiveHoldEnded(me, lockId);
			}
		}
	}

	void pause(long millis) {
		long until = this.world.now() + TimeUnit.MILLISECONDS.toNanos(millis);
		while (this.world.now() < until) {
			this.world.park(until - this.world.now());
			Thread.interrupted();
		}
	}

}

package io.github.distlock.simulation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeSet;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.MultiLockHandle;
import io.github.distlock.core.LockEngine;

/**
 * The multi-key steps of a {@link Workload} thread: {@code tryLockAll} of two or three
 * ids named in a random order, a hold that checks each lock it believes held against the
 * store and writes to each id's fenced register, a close that reports each lock found
 * lost. The checker then holds every lock of a multi-key hold to the invariants of one
 * lock (exclusion, fencing order, no false loss); the wait of the whole acquisition is
 * bounded as one {@code tryLock}'s. The thread counts as waiting for the first id in the
 * global order (for the nemesis's interrupts and the liveness check), the one it waits
 * for while it holds none of the others; the liveness check stops counting it once the
 * store gave it that id (with a fixed lease, that id may run out while the others are
 * awaited: {@code tryLockAll} then starts over while its wait lasts, nobody is starved).
 */
final class MultiKeyWorkload {

	private final Simulation world;

	private final Owners owners;

	private final Observations observations;

	private final Workload workload;

	MultiKeyWorkload(Simulation world, Owners owners, Observations observations, Workload workload) {
		this.world = world;
		this.owners = owners;
		this.observations = observations;
		this.workload = workload;
	}

	Optional<MultiLockHandle> tryLockAll(SimThread me, LockEngine engine, List<String> lockIds, Duration wait,
			Duration lease) {
		String what = "tryLockAll(" + lockIds + ", " + wait.toMillis() + " ms, "
				+ ((lease != null) ? lease.toMillis() + " ms" : "auto") + ")";
		this.owners.multiKeyStarted(me, lockIds);
		try {
			return this.workload
				.attempt(me, what, new TreeSet<>(lockIds).first(), String.join(",", lockIds), wait, "multi-key ",
						() -> engine.tryLockAll(lockIds, wait, lease))
				.map(MultiLockHandle.class::cast);
		}
		finally {
			this.owners.multiKeyEnded(me);
		}
	}

	void hold(SimThread me, MultiLockHandle all, Random random) {
		List<LockHandle> handles = all.handles();
		List<String> owners = new ArrayList<>();
		for (LockHandle handle : handles) {
			String owner = this.owners.ownerOf(handle.lockId(), handle.fencingToken());
			owners.add(owner);
			this.world.trace()
				.log(me.name, "holds '" + handle.lockId() + "', token " + handle.fencingToken() + ", owner " + owner);
			this.observations.holdBegan(me.name, handle.lockId(), handle.fencingToken());
			this.observations.holdBeganAt(handle.lockId(), handle.fencingToken(), this.world.now());
			if (owner != null) {
				this.owners.opened(handle.lockId(), owner);
			}
		}
		try {
			int checks = random.nextInt(6);
			for (int i = 0; i <= checks; i++) {
				believed(me, handles);
				if (random.nextInt(5) == 0 && all.isHeld()) {
					Duration lease = Duration.ofMillis(200 + random.nextInt(3000));
					try {
						this.world.trace()
							.log(me.name, "extend all(" + lease.toMillis() + " ms): " + all.extend(lease));
					}
					catch (RuntimeException ex) {
						this.world.trace().log(me.name, "extend all(" + lease.toMillis() + " ms) failed: " + ex);
					}
				}
				this.workload.pause(random.nextInt(800));
			}
			believed(me, handles);
		}
		finally {
			close(me, all, owners);
		}
	}

	private void believed(SimThread me, List<LockHandle> handles) {
		for (LockHandle handle : handles) {
			if (handle.isHeld()) {
				this.observations.believedHeld(me.name, handle.lockId(), handle.fencingToken());
			}
		}
	}

	private void close(SimThread me, MultiLockHandle all, List<String> owners) {
		this.owners.operationStarted(me);
		try {
			all.close();
			this.world.trace().log(me.name, "released " + all.lockIds());
		}
		catch (LockLostException ex) {
			reportLost(me, all, ex);
			for (Throwable suppressed : ex.getSuppressed()) {
				if (suppressed instanceof LockLostException lost) {
					reportLost(me, all, lost);
				}
			}
		}
		catch (RuntimeException ex) {
			this.world.trace().log(me.name, "close all failed: " + ex);
		}
		finally {
			Thread.interrupted();
			this.owners.operationEnded(me);
			List<LockHandle> handles = all.handles();
			for (int i = 0; i < handles.size(); i++) {
				if (owners.get(i) != null) {
					this.owners.closed(handles.get(i).lockId(), owners.get(i));
				}
			}
		}
	}

	private void reportLost(SimThread me, MultiLockHandle all, LockLostException lost) {
		this.world.trace().log(me.name, "close all: " + lost.getMessage());
		Long token = all.fencingTokens().get(lost.getLockId());
		if (token != null) {
			this.observations.lossReported(me.process(), lost.getLockId(), token,
					"LockLostException at close: " + lost.getMessage());
		}
	}

}

package io.github.distlock.fault.nemesis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.MultiLockHandle;
import io.github.distlock.testsupport.FencedResource;

/**
 * The critical section of a multi-key operation of the nemesis workload: under two locks
 * taken together ({@code tryLockAll}, ids named in a random order), each id's counter
 * incremented by read-modify-write with that id's own fencing token, then one release of
 * both. Recorded as one {@link Op} per id, so that the history checker holds each lock of
 * a multi-key hold to every property of a single one; the hold of each id is recorded
 * from when all were held (a narrower window than the real one, which began with that
 * id's own acquisition).
 */
final class MultiKeyIncrement {

	private MultiKeyIncrement() {
	}

	/**
	 * @param acquiredAt when the acquire returned, before the tokens were read (see
	 * {@link Op})
	 * @param lease the service's lease, the holds'
	 */
	static List<Op> run(String thread, MultiLockHandle all, long acquiredAt, FencedResource resource, Duration lease,
			ThreadLocalRandom random) {
		List<LockHandle> handles = all.handles();
		long[] writeSent = new long[handles.size()];
		long[] writeAck = new long[handles.size()];
		boolean[] accepted = new boolean[handles.size()];
		for (int i = 0; i < handles.size(); i++) {
			LockHandle handle = handles.get(i);
			String read = resource.value(handle.lockId());
			long next = ((read != null) ? Long.parseLong(read) : 0) + 1;
			pause(random.nextInt(10));
			writeSent[i] = System.nanoTime();
			accepted[i] = resource.write(handle.lockId(), handle.fencingToken(), Long.toString(next));
			writeAck[i] = System.nanoTime();
		}
		long releasingAt = System.nanoTime();
		boolean[] heldAtEnd = new boolean[handles.size()];
		for (int i = 0; i < handles.size(); i++) {
			heldAtEnd[i] = handles.get(i).isHeld();
		}
		Set<String> lost = new HashSet<>();
		boolean failed = false;
		try {
			all.close();
		}
		catch (LockLostException ex) {
			lost.add(ex.getLockId());
			for (Throwable suppressed : ex.getSuppressed()) {
				if (suppressed instanceof LockLostException other) {
					lost.add(other.getLockId());
				}
				else {
					failed = true;
				}
			}
		}
		catch (RuntimeException ex) {
			failed = true;
		}
		List<Op> ops = new ArrayList<>();
		for (int i = 0; i < handles.size(); i++) {
			LockHandle handle = handles.get(i);
			String release = lost.contains(handle.lockId()) ? "lost" : failed ? "failed" : "ok";
			ops.add(new Op(thread, handle.lockId(), handle.fencingToken(), acquiredAt, writeSent[i], writeAck[i],
					releasingAt, accepted[i], heldAtEnd[i], release, lease.toMillis(), Hold.NEVER, 0));
		}
		return ops;
	}

	private static void pause(long millis) {
		try {
			TimeUnit.MILLISECONDS.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}

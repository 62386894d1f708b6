package io.github.distlock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import io.github.distlock.support.DurationText;
import io.github.distlock.support.LogSafe;
import org.jspecify.annotations.Nullable;

/**
 * Several locks held together: what {@link LockService#tryLockAll} and an
 * {@link DistributedLock @DistributedLock} whose key is a collection return. All or none:
 * the ids are acquired one after the other in one global order (their natural
 * {@code String} order), the same in every instance, so that callers naming the same ids
 * in any order never deadlock; a failure part-way releases what was taken. A fixed lease
 * counts from each lock's own acquisition: should one run out while a later id is
 * awaited, all are released and taken again while the wait lasts, so a handle returned
 * holds every lock.
 * <p>
 * The loss of any one lock is the loss of the handle: {@link #isHeld()} turns
 * {@code false} and {@link #close()} throws {@link LockLostException} (after releasing
 * the others). The fencing token of each lock is in {@link #fencingTokens()};
 * {@link #fencingToken()} is the greatest of them, which also only grows from one
 * acquisition of the same ids to the next.
 */
public final class MultiLockHandle implements LockHandle {

	private final List<LockHandle> handles;

	private MultiLockHandle(List<LockHandle> handles) {
		this.handles = List.copyOf(handles);
	}

	/**
	 * Acquires every id, all or none, in the global order.
	 * @param lockIds the ids; duplicates count once; not empty
	 * @param waitTime how long all of them together may take
	 * @param acquirer acquires one id within the wait left (a {@link LockService}'s
	 * {@code tryLock} with the lease chosen)
	 * @return the handle, or empty when one id was not acquired in time (nothing held
	 * then)
	 * @throws IllegalArgumentException for an empty collection, a {@code null} or blank
	 * id
	 */
	public static Optional<LockHandle> acquire(Collection<String> lockIds, Duration waitTime, Acquirer acquirer) {
		return acquire(lockIds, waitTime, acquirer, System::nanoTime);
	}

	/**
	 * {@link #acquire(Collection, Duration, Acquirer)} on a clock of the caller's (a lock
	 * engine's, which a simulation runs on virtual time).
	 * @param lockIds the ids; duplicates count once; not empty
	 * @param waitTime how long all of them together may take
	 * @param acquirer acquires one id within the wait left
	 * @param nanoClock the clock the wait is counted on, in nanoseconds
	 * @return the handle, or empty when one id was not acquired in time
	 */
	public static Optional<LockHandle> acquire(Collection<String> lockIds, Duration waitTime, Acquirer acquirer,
			LongSupplier nanoClock) {
		TreeSet<String> ordered = ordered(lockIds);
		if (waitTime == null || waitTime.isNegative()) {
			throw new IllegalArgumentException(
					"waitTime must be zero or positive, but was " + DurationText.of(waitTime));
		}
		long deadline = nanoClock.getAsLong() + waitTime.toNanos();
		while (true) {
			List<LockHandle> held = new ArrayList<>(ordered.size());
			try {
				for (String lockId : ordered) {
					Duration left = Duration.ofNanos(Math.max(0, deadline - nanoClock.getAsLong()));
					Optional<LockHandle> handle = acquirer.tryLock(lockId, left);
					if (handle.isEmpty()) {
						releaseQuietly(held);
						return Optional.empty();
					}
					held.add(handle.get());
				}
			}
			catch (RuntimeException | Error ex) {
				releaseQuietly(held);
				throw ex;
			}
			// A fixed lease of an id taken early may have run out while a later one was
			// awaited: all or none, so try again while the wait lasts.
			if (held.stream().allMatch(LockHandle::isHeld)) {
				return Optional.of(new MultiLockHandle(held));
			}
			releaseQuietly(held);
			if (deadline - nanoClock.getAsLong() <= 0) {
				return Optional.empty();
			}
		}
	}

	/**
	 * The ids, in the order they were acquired.
	 * @return the lock ids
	 */
	public List<String> lockIds() {
		return this.handles.stream().map(LockHandle::lockId).toList();
	}

	/**
	 * The fencing token of each lock, by id, in the order they were acquired.
	 * @return the tokens
	 */
	public Map<String, Long> fencingTokens() {
		Map<String, Long> tokens = new LinkedHashMap<>();
		this.handles.forEach((handle) -> tokens.put(handle.lockId(), handle.fencingToken()));
		return Collections.unmodifiableMap(tokens);
	}

	/**
	 * The handle of each lock, in the order they were acquired.
	 * @return the handles
	 */
	public List<LockHandle> handles() {
		return this.handles;
	}

	/**
	 * The ids joined with {@code ','}, in the order they were acquired (for logs and
	 * messages; {@link #lockIds()} has them apart).
	 */
	@Override
	public String lockId() {
		return String.join(",", lockIds());
	}

	/** The greatest fencing token of the locks. */
	@Override
	public long fencingToken() {
		return this.handles.stream().mapToLong(LockHandle::fencingToken).max().orElseThrow();
	}

	/** Whether every lock is still held. */
	@Override
	public boolean isHeld() {
		return this.handles.stream().allMatch(LockHandle::isHeld);
	}

	/** Extends every lock; {@code true} only if every one was still held. */
	@Override
	public boolean extend(Duration leaseTime) {
		boolean all = true;
		for (LockHandle handle : this.handles) {
			all &= handle.extend(leaseTime);
		}
		return all;
	}

	/** Releases every lock, in reverse order; the first failure is thrown after all. */
	@Override
	public void close() {
		releaseAll(this.handles, LockHandle::close);
	}

	@Override
	public void close(Duration minHoldTime) {
		releaseAll(this.handles, (handle) -> handle.close(minHoldTime));
	}

	@Override
	public String toString() {
		return "MultiLockHandle" + fencingTokens();
	}

	/**
	 * The distinct ids in the global order every caller acquires them in (for callers
	 * acquiring them one by one, such as the reactive interception).
	 * @param lockIds the ids
	 * @return the ordered ids
	 * @throws IllegalArgumentException when there are none, or one is null or blank
	 */
	public static List<String> inLockOrder(Collection<String> lockIds) {
		return List.copyOf(ordered(lockIds));
	}

	private static TreeSet<String> ordered(@Nullable Collection<String> lockIds) {
		if (lockIds == null || lockIds.isEmpty()) {
			throw new IllegalArgumentException("lockIds must name at least one lock id, but was " + lockIds);
		}
		TreeSet<String> ordered = new TreeSet<>();
		for (String lockId : lockIds) {
			if (lockId == null || lockId.isBlank()) {
				throw new IllegalArgumentException("lockIds must not contain a null or blank id, but was "
						+ LogSafe.text(String.valueOf(lockIds)));
			}
			ordered.add(lockId);
		}
		return ordered;
	}

	private static void releaseQuietly(List<LockHandle> held) {
		try {
			releaseAll(held, LockHandle::close);
		}
		catch (RuntimeException ex) {
			// Lost while the others were awaited: nothing to release, nothing the caller
			// holds.
		}
	}

	private static void releaseAll(List<LockHandle> held, Consumer<LockHandle> release) {
		RuntimeException first = null;
		for (int i = held.size() - 1; i >= 0; i--) {
			try {
				release.accept(held.get(i));
			}
			catch (RuntimeException ex) {
				if (first == null) {
					first = ex;
				}
				else {
					first.addSuppressed(ex);
				}
			}
		}
		if (first != null) {
			throw first;
		}
	}

	/**
	 * Acquires one lock id of a multi-key acquisition.
	 */
	@FunctionalInterface
	public interface Acquirer {

		/**
		 * @param lockId the id
		 * @param waitTime the wait left
		 * @return the handle, or empty if not acquired within {@code waitTime}
		 */
		Optional<LockHandle> tryLock(String lockId, Duration waitTime);

	}

}

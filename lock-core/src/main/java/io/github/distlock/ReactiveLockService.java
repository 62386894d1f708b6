package io.github.distlock;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The locks of {@link LockService}, for reactive code: nothing blocks a thread, neither
 * the round trips to the store nor the wait for a lock (it is woken by the same release
 * announcements and grants, with a timer as fallback).
 * <p>
 * A lock belongs to the acquisition that took it (its {@link ReactiveLockHandle}), not to
 * a thread. Within one pipeline it is reentrant through the Reactor {@code Context}: an
 * {@code executeLocked} of a lock id that an enclosing {@code executeLocked} (or
 * {@link DistributedLock @DistributedLock} method) of the same service holds runs at
 * once, and only the outermost one releases. Anything else — another pipeline of this
 * application, another instance, a thread of {@link LockService} — is excluded.
 * <p>
 * Nothing happens until subscription. Cancelling a subscription that waits for a lock
 * ends the wait and leaves no trace of it in the store; cancelling one that holds it
 * releases it.
 */
public interface ReactiveLockService {

	/**
	 * Acquires the lock, waiting up to {@code waitTime}.
	 * @param lockId the lock id
	 * @param waitTime how long to wait; {@link Duration#ZERO} for one attempt
	 * @param leaseTime a fixed lease, or {@code null} for one renewed while held
	 * @return the handle, or empty when {@code waitTime} passed; the caller releases it
	 */
	Mono<ReactiveLockHandle> tryLock(String lockId, Duration waitTime, @Nullable Duration leaseTime);

	/**
	 * Subscribes to {@code action} while holding the lock (its lease renewed), and
	 * releases the lock when {@code action} completes, fails or is cancelled.
	 * @param <T> the action's value
	 * @param lockId the lock id
	 * @param waitTime how long to wait for the lock
	 * @param action what runs under the lock
	 * @return the action's result; {@link LockNotAcquiredException} when {@code waitTime}
	 * passes; {@link LockLostException} when the action succeeded but the lock had been
	 * lost meanwhile
	 */
	<T> Mono<T> executeLocked(String lockId, Duration waitTime, Mono<T> action);

	/**
	 * {@link #executeLocked(String, Duration, Mono)} for a {@link Flux}: the lock is held
	 * from subscription until the last element, the error or the cancellation.
	 * @param <T> the elements' type
	 * @param lockId the lock id
	 * @param waitTime how long to wait for the lock
	 * @param action what runs under the lock
	 * @return the action's elements, then as
	 * {@link #executeLocked(String, Duration, Mono)}
	 */
	<T> Flux<T> executeLocked(String lockId, Duration waitTime, Flux<T> action);

	/**
	 * {@link #executeLocked(String, Duration, Flux)} with a lease and a minimum hold
	 * time, as {@link DistributedLock @DistributedLock} on a reactive method uses it.
	 * @param <T> the elements' type
	 * @param lockId the lock id
	 * @param waitTime how long to wait for the lock
	 * @param leaseTime a fixed lease, or {@code null} for one renewed while held
	 * @param minHoldTime how long the lock is held at least, counted from its acquisition
	 * (it then expires by itself, as {@link LockHandle#close(Duration)})
	 * @param action what runs under the lock
	 * @return as {@link #executeLocked(String, Duration, Flux)}
	 */
	<T> Flux<T> executeLocked(String lockId, Duration waitTime, @Nullable Duration leaseTime, Duration minHoldTime,
			Flux<T> action);

	/**
	 * Whether anyone (any instance) holds the lock now.
	 * @param lockId the lock id
	 * @return whether it is held
	 */
	Mono<Boolean> isLocked(String lockId);

}

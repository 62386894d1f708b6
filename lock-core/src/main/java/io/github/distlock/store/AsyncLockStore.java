package io.github.distlock.store;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The operations of a {@link LockStore} that a caller who must not block a thread (the
 * reactive lock service) needs, answering through a {@link CompletionStage}: the same
 * operations, with the same replies, replays and receipts, as the store's own methods of
 * those names — each call is one call of the store's operation.
 * <p>
 * A stage may complete on the store's I/O thread (Redis: Lettuce's event loop): what is
 * chained to it must be quick and must not block. A stage completes exceptionally only
 * where the store's method would throw (a misconfiguration); an outcome that is not known
 * is an {@link Unknown} reply, as there.
 * <p>
 * A store that has no non-blocking client gets {@link #offloading}: its blocking methods
 * run on an executor of the caller's, so that the caller's thread is not blocked, though
 * a thread of that executor is, for one round trip.
 * <p>
 * Every {@link Acquired} reply of these operations carries its fencing token, never
 * {@link Acquired#TOKEN_ON_READ}: a reactive holder reads its token without blocking, so
 * it is issued with the acquisition ({@link #offloading} asks
 * {@link LockStore#issueFencingToken} right after an acquire that left it out).
 */
public interface AsyncLockStore {

	/**
	 * {@link LockStore#acquire(String, String, long, long)}.
	 * @param key the lock's key
	 * @param owner the owner token of this acquisition, the same for all its attempts
	 * @param leaseMillis the lease, at least 1
	 * @param waitMillis how long the queue entry lives from now, 0 for none
	 * @return the reply
	 */
	CompletionStage<AcquireReply> acquire(String key, String owner, long leaseMillis, long waitMillis);

	/**
	 * {@link LockStore#release(String, String)}.
	 * @param key the lock's key
	 * @param owner the owner token
	 * @return the reply
	 */
	CompletionStage<ReleaseReply> release(String key, String owner);

	/**
	 * {@link LockStore#extend(String, String, long)}.
	 * @param key the lock's key
	 * @param owner the owner token
	 * @param leaseMillis the new lease, at least 1
	 * @return the reply
	 */
	CompletionStage<ExtendReply> extend(String key, String owner, long leaseMillis);

	/**
	 * {@link LockStore#extendAll}: the lease resets of many locks, each owner-checked and
	 * answered on its own, in as few round trips as the store can. By default one
	 * {@link #extend} each, all sent at once.
	 * @param resets the lease resets
	 * @return one reply per reset, in their order; fails only where {@link #extend} would
	 */
	default CompletionStage<List<ExtendReply>> extendAll(List<LeaseReset> resets) {
		List<CompletableFuture<ExtendReply>> replies = resets.stream()
			.map((reset) -> extend(reset.key(), reset.owner(), reset.leaseMillis()).toCompletableFuture())
			.toList();
		return CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new))
			.thenApply((all) -> replies.stream().map(CompletableFuture::join).toList());
	}

	/**
	 * The operations of {@code store}, each run on {@code executor} (for stores whose
	 * client blocks).
	 * @param store the store
	 * @param executor where the blocking calls run
	 * @return the operations
	 */
	static AsyncLockStore offloading(LockStore store, Executor executor) {
		return new AsyncLockStore() {

			@Override
			public CompletionStage<AcquireReply> acquire(String key, String owner, long leaseMillis, long waitMillis) {
				return on(executor,
						() -> withToken(store, key, owner, store.acquire(key, owner, leaseMillis, waitMillis)));
			}

			@Override
			public CompletionStage<ReleaseReply> release(String key, String owner) {
				return on(executor, () -> store.release(key, owner));
			}

			@Override
			public CompletionStage<ExtendReply> extend(String key, String owner, long leaseMillis) {
				return on(executor, () -> store.extend(key, owner, leaseMillis));
			}

			@Override
			public CompletionStage<List<ExtendReply>> extendAll(List<LeaseReset> resets) {
				return on(executor, () -> store.extendAll(resets));
			}

		};
	}

	/**
	 * The operations of {@code store}, each run on the calling thread: for a store whose
	 * operations never block (in memory).
	 * @param store the store
	 * @return the operations
	 */
	static AsyncLockStore direct(LockStore store) {
		return offloading(store, Runnable::run);
	}

	/**
	 * {@code reply}, with its token issued now if it was left for the first read: an
	 * owner that no longer holds the lock by then is refused ({@link HeldByOther}, so the
	 * caller tries again with a fresh owner token), an unknown outcome is {@link Unknown}
	 * (the caller releases the owner token).
	 */
	private static AcquireReply withToken(LockStore store, String key, String owner, AcquireReply reply) {
		if (!(reply instanceof Acquired acquired) || !acquired.tokenOnRead()) {
			return reply;
		}
		FencingTokenReply issued = store.issueFencingToken(key, owner);
		if (issued instanceof Unknown unknown) {
			return unknown;
		}
		return (issued instanceof Acquired token) ? token : new HeldByOther(0);
	}

	private static <T> CompletionStage<T> on(Executor executor, Supplier<T> operation) {
		return CompletableFuture.supplyAsync(operation, executor);
	}

}

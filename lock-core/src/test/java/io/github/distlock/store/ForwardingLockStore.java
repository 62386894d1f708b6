package io.github.distlock.store;

import org.jspecify.annotations.Nullable;

/**
 * A {@link LockStore} that passes every operation to another, for the test decorators
 * that count or audit some of them: a decorator overrides only what it observes and calls
 * the same method here to forward it.
 * <p>
 * Every operation is forwarded, the default ones included ({@link #acquireFair},
 * {@link #supportsFairLocks()}), so that a decorated store offers what the store under it
 * offers: a fair lock on a decorated store reaches the store's fair acquire instead of
 * the interface's "not supported". Except {@link #extendAll}: it goes through
 * {@link #extend} lock by lock (the interface's default), so that a decorator observing
 * {@code extend} sees every renewal.
 */
public abstract class ForwardingLockStore implements LockStore {

	private final LockStore delegate;

	/**
	 * @param delegate the store every operation goes to
	 */
	protected ForwardingLockStore(LockStore delegate) {
		this.delegate = delegate;
	}

	/** The store every operation goes to. */
	protected final LockStore delegate() {
		return this.delegate;
	}

	@Override
	public String key(String lockId) {
		return this.delegate.key(lockId);
	}

	@Override
	public AcquireReply acquire(String key, String owner, long leaseMillis) {
		return this.delegate.acquire(key, owner, leaseMillis);
	}

	@Override
	public FencingTokenReply issueFencingToken(String key, String owner) {
		return this.delegate.issueFencingToken(key, owner);
	}

	@Override
	public AcquireReply acquire(String key, String owner, long leaseMillis, long waitMillis) {
		return this.delegate.acquire(key, owner, leaseMillis, waitMillis);
	}

	@Override
	public AcquireReply acquireFair(String key, String owner, long leaseMillis, long waitMillis) {
		return this.delegate.acquireFair(key, owner, leaseMillis, waitMillis);
	}

	@Override
	public boolean supportsFairLocks() {
		return this.delegate.supportsFairLocks();
	}

	@Override
	public boolean supportsSharedLocks() {
		return this.delegate.supportsSharedLocks();
	}

	@Override
	public AcquireReply acquireShared(String key, String owner, int permits, long leaseMillis) {
		return this.delegate.acquireShared(key, owner, permits, leaseMillis);
	}

	@Override
	public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal) {
		return this.delegate.handOver(key, owner, newOwner, leaseMillis, mayStayLocal);
	}

	@Override
	public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal,
			@Nullable String newOwnerQueuedAs) {
		return this.delegate.handOver(key, owner, newOwner, leaseMillis, mayStayLocal, newOwnerQueuedAs);
	}

	@Override
	public long grantLeaseMillis() {
		return this.delegate.grantLeaseMillis();
	}

	@Override
	public ReleaseReply release(String key, String owner) {
		return this.delegate.release(key, owner);
	}

	@Override
	public ReleaseReply withdraw(String key, String owner) {
		return this.delegate.withdraw(key, owner);
	}

	@Override
	public ExtendReply extend(String key, String owner, long leaseMillis) {
		return this.delegate.extend(key, owner, leaseMillis);
	}

	@Override
	public long remainingLeaseMillis(String key) {
		return this.delegate.remainingLeaseMillis(key);
	}

	@Override
	public void verify() {
		this.delegate.verify();
	}

	@Override
	public ReleaseNotifications subscribe(ReleaseListener listener) {
		return this.delegate.subscribe(listener);
	}

}

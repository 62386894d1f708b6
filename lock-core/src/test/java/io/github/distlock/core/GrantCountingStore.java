package io.github.distlock.core;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.Extended;
import io.github.distlock.store.ForwardingLockStore;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.ForwardingReleaseListener;
import io.github.distlock.store.ReleaseListener;
import io.github.distlock.store.ReleaseNotifications;
import io.github.distlock.store.ReleaseReply;

/**
 * One instance's view of a shared {@link LockStore} that grants: passes everything on
 * (the queueing acquire and hand-over too) and counts the acquires, fair and of the
 * default mode (in all, and those sent for an owner after a grant to it was announced
 * here, which are claims a grant should have saved) and the lease resets that found the
 * lock owned; lets a test act around a fair acquire, before a withdrawal (a release
 * through this view), before a lease reset, and before a grant announcement reaches the
 * engine, or drop grant announcements (as a lost message).
 */
public final class GrantCountingStore extends ForwardingLockStore {

	private final AtomicLong fairAcquires = new AtomicLong();

	private final AtomicLong acquires = new AtomicLong();

	private final AtomicLong claimsAfterGrant = new AtomicLong();

	private final AtomicLong grantsAnnounced = new AtomicLong();

	private final AtomicLong leasesReset = new AtomicLong();

	private final AtomicLong lastAcquiredToken = new AtomicLong();

	private final Set<String> grantedOwners = ConcurrentHashMap.newKeySet();

	private final Set<String> ownOwners = ConcurrentHashMap.newKeySet();

	private final AtomicLong grantsElsewhereLost = new AtomicLong();

	private volatile boolean loseGrantsElsewhere;

	volatile IntConsumer beforeFairAcquire = (call) -> {
	};

	volatile IntConsumer afterFairAcquire = (call) -> {
	};

	volatile Consumer<String> beforeRelease = (owner) -> {
	};

	volatile Consumer<String> beforeGrantAnnounced = (owner) -> {
	};

	volatile Consumer<String> beforeExtend = (owner) -> {
	};

	volatile boolean dropGrantAnnouncements;

	/**
	 * @param delegate the shared store
	 */
	public GrantCountingStore(LockStore delegate) {
		super(delegate);
	}

	long fairAcquires() {
		return this.fairAcquires.get();
	}

	/**
	 * Acquires of the default mode so far.
	 * @return the count
	 */
	public long acquires() {
		return this.acquires.get();
	}

	/**
	 * Acquires, fair or not, sent after a grant to their owner was announced to this
	 * instance.
	 * @return the count
	 */
	public long claimsAfterGrant() {
		return this.claimsAfterGrant.get();
	}

	/**
	 * Grant announcements delivered to this instance, to any owner.
	 * @return the count
	 */
	public long grantsAnnounced() {
		return this.grantsAnnounced.get();
	}

	/**
	 * From now on, announcements of grants to owners this instance never sent an acquire
	 * for (another instance's waiters) do not reach it, as if lost on the way; those of
	 * grants to its own waiters still do.
	 */
	public void loseAnnouncementsOfGrantsElsewhere() {
		this.loseGrantsElsewhere = true;
	}

	/**
	 * Announcements of grants to other instances' owners kept from this instance.
	 * @return the count
	 */
	public long grantsElsewhereLost() {
		return this.grantsElsewhereLost.get();
	}

	/**
	 * Lease resets ({@code extend}) that found the lock owned.
	 * @return the count
	 */
	public long leasesReset() {
		return this.leasesReset.get();
	}

	/** The fencing token of the last fair acquire that answered acquired. */
	long lastAcquiredToken() {
		return this.lastAcquiredToken.get();
	}

	@Override
	public AcquireReply acquire(String key, String owner, long leaseMillis) {
		return acquire(key, owner, leaseMillis, 0);
	}

	@Override
	public AcquireReply acquire(String key, String owner, long leaseMillis, long waitMillis) {
		this.acquires.incrementAndGet();
		this.ownOwners.add(owner);
		if (this.grantedOwners.contains(owner)) {
			this.claimsAfterGrant.incrementAndGet();
		}
		return delegate().acquire(key, owner, leaseMillis, waitMillis);
	}

	@Override
	public AcquireReply acquireFair(String key, String owner, long leaseMillis, long waitMillis) {
		int call = (int) this.fairAcquires.incrementAndGet();
		this.ownOwners.add(owner);
		if (this.grantedOwners.contains(owner)) {
			this.claimsAfterGrant.incrementAndGet();
		}
		this.beforeFairAcquire.accept(call);
		AcquireReply reply = delegate().acquireFair(key, owner, leaseMillis, waitMillis);
		if (reply instanceof Acquired acquired) {
			this.lastAcquiredToken.set(acquired.fencingToken());
		}
		this.afterFairAcquire.accept(call);
		return reply;
	}

	@Override
	public ReleaseReply release(String key, String owner) {
		this.beforeRelease.accept(owner);
		return delegate().release(key, owner);
	}

	@Override
	public ExtendReply extend(String key, String owner, long leaseMillis) {
		this.beforeExtend.accept(owner);
		ExtendReply reply = delegate().extend(key, owner, leaseMillis);
		if (reply instanceof Extended) {
			this.leasesReset.incrementAndGet();
		}
		return reply;
	}

	@Override
	public ReleaseNotifications subscribe(ReleaseListener listener) {
		return delegate().subscribe(new ForwardingReleaseListener(listener) {

			@Override
			public void granted(String key, String owner, long fencingToken) {
				if (GrantCountingStore.this.dropGrantAnnouncements) {
					return;
				}
				if (GrantCountingStore.this.loseGrantsElsewhere && !GrantCountingStore.this.ownOwners.contains(owner)) {
					GrantCountingStore.this.grantsElsewhereLost.incrementAndGet();
					return;
				}
				GrantCountingStore.this.beforeGrantAnnounced.accept(owner);
				GrantCountingStore.this.grantsAnnounced.incrementAndGet();
				GrantCountingStore.this.grantedOwners.add(owner);
				listener.granted(key, owner, fencingToken);
			}

		});
	}

}

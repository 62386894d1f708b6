package io.github.distlock.redis;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.HandOverReply;
import io.github.distlock.store.HeldByOther;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.ReleaseListener;
import io.github.distlock.store.ReleaseNotifications;
import io.github.distlock.store.ReleaseReply;

/**
 * A {@link LockStore} that passes everything to another and counts, per key, the release
 * announcements delivered to its listener; tells a test when an acquire was refused.
 */
final class CountingLockStore implements LockStore {

	private final LockStore delegate;

	private final Map<String, AtomicLong> announcements = new ConcurrentHashMap<>();

	private final Map<String, Long> announcementsAtRefusal = new ConcurrentHashMap<>();

	private final AtomicLong acquiredAfterAnnouncement = new AtomicLong();

	private final AtomicLong acquiredWithoutAnnouncement = new AtomicLong();

	private final AtomicLong attempts = new AtomicLong();

	private volatile Consumer<String> onRefused = (key) -> {
	};

	CountingLockStore(LockStore delegate) {
		this.delegate = delegate;
	}

	/**
	 * Release announcements of {@code key} this store's subscription delivered so far.
	 */
	long announcements(String key) {
		AtomicLong count = this.announcements.get(key);
		return (count != null) ? count.get() : 0;
	}

	long announcements() {
		return this.announcements.values().stream().mapToLong(AtomicLong::get).sum();
	}

	/**
	 * Acquisitions, after a refused attempt, for which a release announcement of the key
	 * had arrived since that refusal.
	 */
	long acquiredAfterAnnouncement() {
		return this.acquiredAfterAnnouncement.get();
	}

	/** Acquisitions after a refused attempt without an announcement since (re-checks). */
	long acquiredWithoutAnnouncement() {
		return this.acquiredWithoutAnnouncement.get();
	}

	/** Acquire round trips so far. */
	long attempts() {
		return this.attempts.get();
	}

	void onRefused(Consumer<String> onRefused) {
		this.onRefused = onRefused;
	}

	@Override
	public String key(String lockId) {
		return this.delegate.key(lockId);
	}

	@Override
	public AcquireReply acquire(String key, String owner, long leaseMillis) {
		this.attempts.incrementAndGet();
		AcquireReply reply = this.delegate.acquire(key, owner, leaseMillis);
		if (reply instanceof HeldByOther) {
			this.announcementsAtRefusal.put(key, announcements(key));
			this.onRefused.accept(key);
		}
		else if (reply instanceof Acquired) {
			Long atRefusal = this.announcementsAtRefusal.remove(key);
			if (atRefusal != null) {
				(announcements(key) > atRefusal ? this.acquiredAfterAnnouncement : this.acquiredWithoutAnnouncement)
					.incrementAndGet();
			}
		}
		return reply;
	}

	@Override
	public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal) {
		return this.delegate.handOver(key, owner, newOwner, leaseMillis, mayStayLocal);
	}

	@Override
	public ReleaseReply release(String key, String owner) {
		return this.delegate.release(key, owner);
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
		return this.delegate.subscribe((key) -> {
			this.announcements.computeIfAbsent(key, (k) -> new AtomicLong()).incrementAndGet();
			listener.released(key);
		});
	}

}

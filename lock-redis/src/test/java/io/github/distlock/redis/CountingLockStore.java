package io.github.distlock.redis;

import java.util.function.Supplier;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.ForwardingLockStore;
import io.github.distlock.store.HeldByOther;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.ReleaseListener;
import io.github.distlock.store.ReleaseNotifications;

/**
 * A {@link LockStore} that passes everything to another and counts, per key, the release
 * announcements delivered to its listener; tells a test when an acquire was refused.
 */
final class CountingLockStore extends ForwardingLockStore {

	private final Map<String, AtomicLong> announcements = new ConcurrentHashMap<>();

	private final Map<String, Long> announcementsAtRefusal = new ConcurrentHashMap<>();

	private final AtomicLong acquiredAfterAnnouncement = new AtomicLong();

	private final AtomicLong acquiredWithoutAnnouncement = new AtomicLong();

	private final AtomicLong attempts = new AtomicLong();

	private volatile Consumer<String> onRefused = (key) -> {
	};

	CountingLockStore(LockStore delegate) {
		super(delegate);
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
	public AcquireReply acquire(String key, String owner, long leaseMillis) {
		return counted(key, () -> super.acquire(key, owner, leaseMillis));
	}

	@Override
	public AcquireReply acquire(String key, String owner, long leaseMillis, long waitMillis) {
		return counted(key, () -> super.acquire(key, owner, leaseMillis, waitMillis));
	}

	private AcquireReply counted(String key, Supplier<AcquireReply> acquire) {
		this.attempts.incrementAndGet();
		AcquireReply reply = acquire.get();
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

	/**
	 * Counts every announcement, a grant to a fair waiter too (which is also a release),
	 * and passes it on as it came.
	 */
	@Override
	public ReleaseNotifications subscribe(ReleaseListener listener) {
		return super.subscribe(new ReleaseListener() {

			@Override
			public void released(String key) {
				countAnnouncement(key);
				listener.released(key);
			}

			@Override
			public void granted(String key, String owner) {
				countAnnouncement(key);
				listener.granted(key, owner);
			}

		});
	}

	private void countAnnouncement(String key) {
		this.announcements.computeIfAbsent(key, (k) -> new AtomicLong()).incrementAndGet();
	}

}

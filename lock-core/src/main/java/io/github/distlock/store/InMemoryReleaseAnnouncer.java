package io.github.distlock.store;

import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

import io.github.distlock.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The release subscriptions of an {@link InMemoryLockStore}: active from the start until
 * closed, told synchronously on the releasing thread.
 */
final class InMemoryReleaseAnnouncer {

	private static final Log logger = LogFactory.getLog(InMemoryLockStore.class);

	private final Set<Subscription> subscriptions = new CopyOnWriteArraySet<>();

	ReleaseNotifications subscribe(ReleaseListener listener) {
		Subscription subscription = new Subscription(listener);
		this.subscriptions.add(subscription);
		return subscription;
	}

	/** Tells every open subscription; a listener that throws is logged and skipped. */
	void announce(String key) {
		for (Subscription subscription : this.subscriptions) {
			subscription.announce(key);
		}
	}

	/** Tells every open subscription of a grant to {@code owner}. */
	void announceGrant(String key, String owner, long fencingToken) {
		for (Subscription subscription : this.subscriptions) {
			subscription.announceGrant(key, owner, fencingToken);
		}
	}

	private final class Subscription implements ReleaseNotifications {

		private final ReleaseListener listener;

		private volatile boolean closed;

		Subscription(ReleaseListener listener) {
			this.listener = listener;
		}

		@Override
		public boolean ensureActive(String key, long deadlineNanos) {
			return !this.closed;
		}

		@Override
		public void close() {
			this.closed = true;
			InMemoryReleaseAnnouncer.this.subscriptions.remove(this);
		}

		void announce(String key) {
			if (this.closed) {
				return;
			}
			try {
				this.listener.released(key);
			}
			catch (RuntimeException ex) {
				logger.warn("A release listener failed on lock key '" + LogSafe.text(key) + "'", ex);
			}
		}

		void announceGrant(String key, String owner, long fencingToken) {
			if (this.closed) {
				return;
			}
			try {
				this.listener.granted(key, owner, fencingToken);
			}
			catch (RuntimeException ex) {
				logger.warn("A release listener failed on lock key '" + LogSafe.text(key) + "'", ex);
			}
		}

	}

}

package io.github.distlock.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.github.distlock.store.ReleaseNotifications;

/**
 * Release announcements of a {@link QuorumLockStore}: one subscription per node, active
 * when a majority of them is. A majority holder's release publishes on every node where a
 * waiter flagged the lock as contended (a waiter flags a majority of them when a majority
 * refused it), and two majorities share a node, so a waiter subscribed on a majority
 * hears it; the waiters' fallback re-check covers the rest. Subscribing to a node that
 * does not answer never holds a waiter past its deadline: the nodes are asked in
 * parallel, and the answer comes once a majority is active.
 */
final class QuorumReleaseNotifications implements ReleaseNotifications {

	private final NodeCalls nodes;

	private final List<ReleaseNotifications> subscriptions;

	QuorumReleaseNotifications(NodeCalls nodes, List<ReleaseNotifications> subscriptions) {
		this.nodes = nodes;
		this.subscriptions = List.copyOf(subscriptions);
	}

	@Override
	public boolean ensureActive(String key, long deadlineNanos) {
		int majority = this.nodes.majority();
		AtomicInteger active = new AtomicInteger();
		AtomicInteger done = new AtomicInteger();
		ReentrantLock lock = new ReentrantLock();
		Condition changed = lock.newCondition();
		for (ReleaseNotifications subscription : this.subscriptions) {
			Runnable ensure = () -> {
				boolean ok = false;
				try {
					ok = subscription.ensureActive(key, deadlineNanos);
				}
				finally {
					lock.lock();
					try {
						if (ok) {
							active.incrementAndGet();
						}
						done.incrementAndGet();
						changed.signalAll();
					}
					finally {
						lock.unlock();
					}
				}
			};
			try {
				CompletableFuture.runAsync(ensure, this.nodes.executor());
			}
			catch (RejectedExecutionException ex) {
				return false;
			}
		}
		lock.lock();
		try {
			while (active.get() < majority && done.get() < this.subscriptions.size()) {
				long left = deadlineNanos - System.nanoTime();
				if (left <= 0) {
					break;
				}
				try {
					changed.awaitNanos(Math.min(left, TimeUnit.SECONDS.toNanos(1)));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					break;
				}
			}
			return active.get() >= majority;
		}
		finally {
			lock.unlock();
		}
	}

	@Override
	public void close() {
		this.subscriptions.forEach(ReleaseNotifications::close);
	}

}

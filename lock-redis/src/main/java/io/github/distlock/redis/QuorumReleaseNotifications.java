package io.github.distlock.redis;

import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.github.distlock.runtime.EngineRuntime;
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
		EngineRuntime runtime = this.nodes.runtime();
		AtomicInteger active = new AtomicInteger();
		AtomicInteger done = new AtomicInteger();
		Thread caller = Thread.currentThread();
		// Cleared when this call returns: a node's answer after that must not unpark the
		// caller, whose next park would return at once (a waiter behind a local holder
		// then spun, each turn asking every node again).
		AtomicReference<Thread> waiting = new AtomicReference<>(caller);
		for (ReleaseNotifications subscription : this.subscriptions) {
			Runnable ensure = () -> {
				boolean ok = false;
				try {
					ok = subscription.ensureActive(key, deadlineNanos);
				}
				finally {
					if (ok) {
						active.incrementAndGet();
					}
					done.incrementAndGet();
					Thread stillWaiting = waiting.get();
					if (stillWaiting != null) {
						runtime.unpark(stillWaiting);
					}
				}
			};
			try {
				this.nodes.executor().execute(ensure);
			}
			catch (RejectedExecutionException ex) {
				return false;
			}
		}
		try {
			while (active.get() < majority && done.get() < this.subscriptions.size()) {
				long left = deadlineNanos - runtime.nanoTime();
				if (left <= 0 || caller.isInterrupted()) {
					break;
				}
				runtime.park(this, left);
			}
			return active.get() >= majority;
		}
		finally {
			waiting.set(null);
		}
	}

	@Override
	public void close() {
		this.subscriptions.forEach(ReleaseNotifications::close);
	}

}

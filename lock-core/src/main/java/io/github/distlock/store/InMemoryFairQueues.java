package io.github.distlock.store;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

/**
 * The fair queues of an {@link InMemoryLockStore}: per key, the owners that asked fairly
 * and were refused, in arrival order, each with the clock time (ms) until which its entry
 * lives and the lease (ms) it asked for, which a grant to it carries. An entry whose time
 * has passed is dead and dropped; a key whose queue is empty is forgotten.
 * <p>
 * Not thread-safe by itself: every method for a key is called inside the store's atomic
 * update of that key, which serializes them.
 */
final class InMemoryFairQueues {

	private final ConcurrentHashMap<String, LinkedHashMap<String, Entry>> queues = new ConcurrentHashMap<>();

	/**
	 * The first live entry of the queue of {@code key}, dropping the dead ones ahead of
	 * it.
	 * @return its owner, or {@code null} if nobody is queued
	 */
	@Nullable String liveHead(String key, long nowMillis) {
		LinkedHashMap<String, Entry> queue = this.queues.get(key);
		if (queue == null) {
			return null;
		}
		Iterator<Map.Entry<String, Entry>> entries = queue.entrySet().iterator();
		while (entries.hasNext()) {
			Map.Entry<String, Entry> entry = entries.next();
			if (entry.getValue().deadlineMillis() > nowMillis) {
				return entry.getKey();
			}
			entries.remove();
		}
		this.queues.remove(key);
		return null;
	}

	/**
	 * Queues {@code owner} at the end, or keeps its place if it is queued and alive, with
	 * the lease it asks for.
	 */
	void enqueue(String key, String owner, long nowMillis, long deadlineMillis, long leaseMillis) {
		LinkedHashMap<String, Entry> queue = this.queues.computeIfAbsent(key, (k) -> new LinkedHashMap<>());
		Entry entry = queue.get(owner);
		if (entry != null && entry.deadlineMillis() <= nowMillis) {
			// Dead: it goes to the end, as in Redis.
			queue.remove(owner);
		}
		queue.put(owner, new Entry(deadlineMillis, leaseMillis));
	}

	/** The lease the queued {@code owner} asked for, in ms. */
	long leaseOf(String key, String owner) {
		LinkedHashMap<String, Entry> queue = this.queues.get(key);
		Entry entry = (queue != null) ? queue.get(owner) : null;
		if (entry == null) {
			throw new IllegalStateException("'" + owner + "' is not queued for '" + key + "'");
		}
		return entry.leaseMillis();
	}

	/**
	 * Takes {@code owner} out of the queue of {@code key} (granted, acquired, withdrawn).
	 */
	void remove(String key, String owner) {
		LinkedHashMap<String, Entry> queue = this.queues.get(key);
		if (queue != null) {
			queue.remove(owner);
			if (queue.isEmpty()) {
				this.queues.remove(key);
			}
		}
	}

	/**
	 * Drops the dead entries of every queue, and the queues left empty, each inside the
	 * atomic update of its key in {@code states}, like every other change of its queue.
	 */
	void purge(ConcurrentHashMap<String, InMemoryLockState> states, long nowMillis) {
		for (String key : this.queues.keySet()) {
			states.compute(key, (k, state) -> {
				liveHead(k, nowMillis);
				return state;
			});
		}
	}

	int size() {
		return this.queues.size();
	}

	/** A queue entry: until when it lives, and the lease its owner asked for. */
	private record Entry(long deadlineMillis, long leaseMillis) {

	}

}

package io.github.distlock.simulation;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Who an owner token belongs to, as far as the world saw it: the process and thread whose
 * store call sent it, the fencing token each lock reply gave it, and which threads are in
 * the middle of a lock operation (an acquisition, or a release that may hand the lock
 * over) with which tokens. The monitor tells a lock held for somebody from a ghost lock
 * with it.
 */
final class Owners {

	private static final int RECENTLY_ENDED = 8;

	private final Map<String, SimProcess> processOf = new HashMap<>();

	/**
	 * Per lock id, the owner each fencing token was given to (tokens repeat across ids).
	 */
	private final Map<String, Map<Long, String>> ownerOfToken = new HashMap<>();

	/** Tokens sent by each thread during its current lock operation. */
	private final Map<SimThread, Set<String>> inFlight = new HashMap<>();

	/**
	 * Per lock id, the last owners whose release was answered (released, or not owned),
	 * as many as the store's receipt is sure to remember and half again.
	 */
	private final Map<String, ArrayDeque<String>> ended = new HashMap<>();

	/** Threads in a multi-key acquisition, with its lock ids. */
	private final Map<SimThread, Set<String>> multiKey = new HashMap<>();

	/**
	 * Per thread in a multi-key acquisition, the ids the store answered "acquired" to an
	 * owner token the thread sent, until it sends another for that id: the ids it holds
	 * while it awaits the others.
	 */
	private final Map<SimThread, Set<String>> multiKeyHeld = new HashMap<>();

	/** Owners of open handles: lock id -> owner token -> holds open. */
	private final Map<String, Map<String, Integer>> open = new HashMap<>();

	void sent(SimThread thread, String lockId, String owner) {
		if (thread != null) {
			this.processOf.putIfAbsent(owner, thread.process());
			Set<String> tokens = this.inFlight.get(thread);
			if (tokens != null) {
				tokens.add(owner);
			}
			Set<String> held = this.multiKeyHeld.get(thread);
			if (held != null) {
				held.remove(lockId);
			}
		}
	}

	void acquired(String lockId, String owner, long fencingToken) {
		this.ownerOfToken.computeIfAbsent(lockId, (id) -> new HashMap<>()).put(fencingToken, owner);
		for (Map.Entry<SimThread, Set<String>> entry : this.multiKeyHeld.entrySet()) {
			Set<String> sent = this.inFlight.get(entry.getKey());
			if (sent != null && sent.contains(owner)) {
				entry.getValue().add(lockId);
			}
		}
	}

	/**
	 * Whether {@code thread}, in a multi-key acquisition, holds {@code lockId} while it
	 * awaits its other ids (taken by an acquire it sent; not through a hand-over inside
	 * its instance, which this does not see).
	 */
	boolean heldInMultiKey(SimThread thread, String lockId) {
		Set<String> held = this.multiKeyHeld.get(thread);
		return held != null && held.contains(lockId);
	}

	/** Every owner whose release was answered, of any id. */
	private final Set<String> released = new HashSet<>();

	/** Whether a release of {@code owner} was answered. */
	boolean wasReleased(String owner) {
		return this.released.contains(owner);
	}

	/** A release of {@code owner} was answered: its part in the lock ended. */
	void ended(String lockId, String owner) {
		this.released.add(owner);
		ArrayDeque<String> last = this.ended.computeIfAbsent(lockId, (id) -> new ArrayDeque<>());
		last.remove(owner);
		last.addLast(owner);
		if (last.size() > RECENTLY_ENDED) {
			last.removeFirst();
		}
	}

	/**
	 * Whether {@code owner} is one of the last owners of the lock whose release was
	 * answered: the store refuses any late copy of their acquires (its receipt remembers
	 * 16; half of that, so that endings the client did not see cannot push them out).
	 */
	boolean recentlyEnded(String lockId, String owner) {
		ArrayDeque<String> last = this.ended.get(lockId);
		return last != null && last.contains(owner);
	}

	String ownerOf(String lockId, long fencingToken) {
		Map<Long, String> owners = this.ownerOfToken.get(lockId);
		return (owners != null) ? owners.get(fencingToken) : null;
	}

	SimProcess processOf(String owner) {
		return this.processOf.get(owner);
	}

	void operationStarted(SimThread thread) {
		this.inFlight.put(thread, new HashSet<>());
	}

	void operationEnded(SimThread thread) {
		this.inFlight.remove(thread);
	}

	void opened(String lockId, String owner) {
		this.open.computeIfAbsent(lockId, (id) -> new HashMap<>()).merge(owner, 1, Integer::sum);
	}

	void closed(String lockId, String owner) {
		Map<String, Integer> owners = this.open.get(lockId);
		if (owners != null) {
			owners.computeIfPresent(owner, (o, count) -> (count > 1) ? count - 1 : null);
		}
	}

	/**
	 * Whether the lock held for {@code owner} is accounted for: an open handle holds it,
	 * or a thread is in the middle of an operation that sent it.
	 */
	boolean accountedFor(String lockId, String owner) {
		Map<String, Integer> owners = this.open.get(lockId);
		if (owners != null && owners.containsKey(owner)) {
			return true;
		}
		for (Map.Entry<SimThread, Set<String>> entry : this.inFlight.entrySet()) {
			if (entry.getValue().contains(owner) && !entry.getKey().process().isCrashed()) {
				return true;
			}
		}
		// A lock handed over inside the owner's instance to a thread that still awaits
		// the
		// other ids of its multi-key acquisition: the token was sent by the releasing
		// thread, and the receiving one opens its handles only once it has them all.
		SimProcess process = this.processOf.get(owner);
		for (Map.Entry<SimThread, Set<String>> entry : this.multiKey.entrySet()) {
			if (entry.getKey().process() == process && entry.getValue().contains(lockId)
					&& !entry.getKey().process().isCrashed()) {
				return true;
			}
		}
		return false;
	}

	/** {@code thread} began a multi-key acquisition of {@code lockIds}. */
	void multiKeyStarted(SimThread thread, Collection<String> lockIds) {
		this.multiKey.put(thread, new HashSet<>(lockIds));
		this.multiKeyHeld.put(thread, new HashSet<>());
	}

	void multiKeyEnded(SimThread thread) {
		this.multiKey.remove(thread);
		this.multiKeyHeld.remove(thread);
	}

}

package io.github.distlock.simulation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which threads are in {@code tryLock} for which lock id now: the waiters the liveness
 * checks count, and the ones the nemesis may interrupt.
 */
final class Waiting {

	private final Map<String, List<SimThread>> byLockId = new HashMap<>();

	void started(String lockId, SimThread thread) {
		this.byLockId.computeIfAbsent(lockId, (id) -> new ArrayList<>()).add(thread);
	}

	void ended(String lockId, SimThread thread) {
		List<SimThread> threads = this.byLockId.get(lockId);
		if (threads != null) {
			threads.remove(thread);
		}
	}

	/**
	 * Threads of live processes waiting for {@code lockId}, but for those that hold it
	 * already and await the other ids of a multi-key acquisition.
	 */
	int waiters(String lockId, Owners owners) {
		List<SimThread> threads = this.byLockId.get(lockId);
		if (threads == null) {
			return 0;
		}
		return (int) threads.stream()
			.filter((thread) -> !thread.process().isCrashed() && !owners.heldInMultiKey(thread, lockId))
			.count();
	}

	/** Every waiting thread, in the order they started waiting per id. */
	List<SimThread> all() {
		List<SimThread> all = new ArrayList<>();
		this.byLockId.keySet().stream().sorted().forEach((id) -> all.addAll(this.byLockId.get(id)));
		return all;
	}

}

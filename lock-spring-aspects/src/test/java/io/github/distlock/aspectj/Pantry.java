package io.github.distlock.aspectj;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockContext;
import io.github.distlock.LockService;

/**
 * Woven at compile time, a bean of one application context among several: records whether
 * its locked method ran under a lock of its own context's lock service.
 */
public class Pantry {

	private final LockService ownLocks;

	private final List<String> seen = new CopyOnWriteArrayList<>();

	public Pantry(LockService ownLocks) {
		this.ownLocks = ownLocks;
	}

	public List<String> seen() {
		return this.seen;
	}

	/** Not locked itself: calls the locked method through {@code this}. */
	public void take(String item) {
		takeLocked(item);
	}

	@DistributedLock(name = "pantry", key = "#item", waitTime = "0")
	private void takeLocked(String item) {
		this.seen.add("pantry:" + item + " held in own context=" + this.ownLocks.isLocked("pantry:" + item)
				+ ", handle=" + LockContext.current().isPresent());
	}

}

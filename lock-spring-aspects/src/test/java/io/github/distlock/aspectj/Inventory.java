package io.github.distlock.aspectj;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockContext;
import io.github.distlock.LockService;

/**
 * Woven at compile time: locked methods of every kind a proxy cannot reach, each reached
 * through {@code this}. Each records whether its lock was held while it ran, as another
 * instance (the observer) sees it, and whether it ran with a lock handle.
 */
public class Inventory {

	private final LockService observer;

	private final List<String> seen = new CopyOnWriteArrayList<>();

	public Inventory(LockService observer) {
		this.observer = observer;
	}

	public List<String> seen() {
		return this.seen;
	}

	/** Not locked itself: calls the locked method through {@code this}. */
	public void buy(String sku) {
		reserve(sku);
	}

	@DistributedLock(name = "stock", key = "#sku")
	void reserve(String sku) {
		record("stock:" + sku);
	}

	public void audit() {
		writeAudit();
	}

	@DistributedLock(name = "audit")
	private void writeAudit() {
		record("audit");
	}

	public void close() {
		closeBooks();
	}

	@DistributedLock(name = "books")
	public final void closeBooks() {
		record("books");
	}

	public void nightly(String day) {
		this.seen.add(nightlyReport(day, this.observer));
	}

	@DistributedLock(name = "nightly", key = "#day")
	static String nightlyReport(String day, LockService observer) {
		return describe("nightly:" + day, observer);
	}

	/** Locked and public, so that a proxy could intercept it too. */
	@DistributedLock(name = "stock", key = "#sku")
	public void reserveNow(String sku) {
		record("stock:" + sku);
	}

	private void record(String lockId) {
		this.seen.add(describe(lockId, this.observer));
	}

	private static String describe(String lockId, LockService observer) {
		return lockId + " held elsewhere=" + observer.isLocked(lockId) + ", handle="
				+ LockContext.current().isPresent();
	}

}

package io.github.distlock.test;

import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockContext;
import io.github.distlock.LockHandle;
import io.github.distlock.OnLockFailure;

/**
 * Locked methods as an application writes them, counting the calls that ran.
 */
class Jobs {

	private final AtomicInteger runs = new AtomicInteger();

	/** Calls that ran the method's body; reset by {@link #resetRuns()}. */
	int runs() {
		return this.runs.get();
	}

	void resetRuns() {
		this.runs.set(0);
	}

	@DistributedLock(name = "stock", key = "#sku", waitTime = "0")
	void buy(String sku, Runnable during) {
		this.runs.incrementAndGet();
		during.run();
	}

	@DistributedLock(name = "stock", key = "#sku", waitTime = "30s")
	void buyWaiting(String sku) {
		this.runs.incrementAndGet();
	}

	@DistributedLock(name = "report", waitTime = "0", onFailure = OnLockFailure.SKIP)
	Optional<String> report() {
		this.runs.incrementAndGet();
		return Optional.of("done");
	}

	@DistributedLock(name = "report", waitTime = "0", onFailure = OnLockFailure.SKIP)
	boolean reportNow() {
		this.runs.incrementAndGet();
		return true;
	}

	/** Holds the auto-renewed lock {@code export} until {@code finish} opens. */
	@DistributedLock(name = "export", waitTime = "0")
	void export(CountDownLatch started, CountDownLatch finish, LockHandle[] handle) throws InterruptedException {
		handle[0] = LockContext.current().orElseThrow();
		started.countDown();
		if (!finish.await(30, TimeUnit.SECONDS)) {
			throw new IllegalStateException("export was not told to finish within 30s");
		}
		this.runs.incrementAndGet();
	}

	/** Holds {@code import} with a fixed lease of 1 minute until {@code finish} opens. */
	@DistributedLock(name = "import", waitTime = "0", leaseTime = "1m")
	void importFixed(CountDownLatch started, CountDownLatch finish) throws InterruptedException {
		started.countDown();
		if (!finish.await(30, TimeUnit.SECONDS)) {
			throw new IllegalStateException("import was not told to finish within 30s");
		}
		this.runs.incrementAndGet();
	}

}

package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.testsupport.Hold;
import io.github.distlock.testsupport.OverlapChecker;
import org.jspecify.annotations.Nullable;

/**
 * The workload of the mutual exclusion tests on several application instances: the
 * threads of each lock service, released together, take the locks of a few ids in turn
 * and, inside every hold, increment the id's counter by an unprotected read-modify-write
 * (a yield between the read and the write), recording the hold. Two holders at once show
 * as a counter short of the number of holds, and as overlapping holds or fencing tokens
 * going back ({@link OverlapChecker}).
 * <p>
 * Thread {@code t} of each service starts at id {@code t % ids} and takes the ids in a
 * cycle from there, so that the threads of one instance contend with each other as much
 * as with the other instances.
 */
final class ContendedCounters {

	private final String[] ids;

	private final long[] counters;

	private final Queue<Hold> holds = new ConcurrentLinkedQueue<>();

	private ContendedCounters(String[] ids) {
		this.ids = ids;
		this.counters = new long[ids.length];
	}

	/**
	 * Runs the workload and returns once every thread finished.
	 * @param services the lock services, one per application instance
	 * @param threadsPerService threads of each service
	 * @param holdsPerThread holds each thread takes
	 * @param ids the lock ids
	 * @param timeout how long a thread may take for all its holds
	 * @param acquisition how a thread takes one lock
	 * @return the counters and the holds
	 * @throws Exception what a thread threw
	 */
	static ContendedCounters run(List<? extends LockService> services, int threadsPerService, int holdsPerThread,
			String[] ids, Duration timeout, Acquisition acquisition) throws Exception {
		ContendedCounters run = new ContendedCounters(ids);
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService pool = Executors.newFixedThreadPool(services.size() * threadsPerService);
		List<Future<?>> workers = new ArrayList<>();
		try {
			for (int s = 0; s < services.size(); s++) {
				LockService service = services.get(s);
				for (int t = 0; t < threadsPerService; t++) {
					String client = "service" + s + "-t" + t;
					int first = t % ids.length;
					workers.add(pool.submit(() -> {
						start.await();
						for (int i = 0; i < holdsPerThread; i++) {
							run.holdAndIncrement(client, (first + i) % ids.length, service, acquisition);
						}
						return null;
					}));
				}
			}
			start.countDown();
			for (Future<?> worker : workers) {
				worker.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		return run;
	}

	private void holdAndIncrement(String client, int index, LockService service, Acquisition acquisition)
			throws Exception {
		try (LockHandle lock = lockUntilHeld(service, this.ids[index], acquisition)) {
			long acquired = System.nanoTime();
			long read = this.counters[index];
			Thread.yield();
			this.counters[index] = read + 1;
			this.holds.add(new Hold(client, this.ids[index], lock.fencingToken(), acquired, System.nanoTime()));
		}
	}

	private static LockHandle lockUntilHeld(LockService service, String id, Acquisition acquisition) throws Exception {
		LockHandle lock = acquisition.lock(service, id);
		while (lock == null) {
			lock = acquisition.lock(service, id);
		}
		return lock;
	}

	/** The counter of the id at {@code index}: its holds, unless two overlapped. */
	long counter(int index) {
		return this.counters[index];
	}

	/** The sum of all counters. */
	long counterSum() {
		long sum = 0;
		for (long counter : this.counters) {
			sum += counter;
		}
		return sum;
	}

	/** Every hold, in the order the holders recorded them. */
	Queue<Hold> holds() {
		return this.holds;
	}

	/** Holds of one id that overlapped: must be none. */
	List<OverlapChecker.Overlap> overlaps() {
		return OverlapChecker.overlaps(this.holds);
	}

	/** Fencing tokens of one id that went back: must be none. */
	List<OverlapChecker.Overlap> tokenRegressions() {
		return OverlapChecker.tokenRegressions(this.holds);
	}

	/** How a thread takes one lock. */
	@FunctionalInterface
	interface Acquisition {

		/**
		 * @param service the thread's lock service
		 * @param id the lock id
		 * @return the held lock, or {@code null} to try the same hold again
		 * @throws Exception anything, which ends the run
		 */
		@Nullable LockHandle lock(LockService service, String id) throws Exception;

	}

}

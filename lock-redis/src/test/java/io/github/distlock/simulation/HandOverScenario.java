package io.github.distlock.simulation;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import io.github.distlock.LockHandle;
import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.core.LockEngine;
import io.github.distlock.runtime.TaskPool;
import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.ForwardingLockStore;
import io.github.distlock.store.InMemoryLockStore;
import org.jetbrains.lincheck.Lincheck;

import org.springframework.dao.InvalidDataAccessApiUsageException;

/**
 * Two threads of one instance race for one lock while the waiter's second attempt fails
 * for good (an ACL's {@code NOPERM}), explored by Lincheck's model checker, which
 * switches threads at every shared memory access: the interleavings the simulation cannot
 * split (it switches only where a thread parks). Afterwards nobody may hold the lock: a
 * hand-over to the waiter that left would hold it for nobody (issue 10's ghost
 * hand-over).
 * <p>
 * The engine runs on a runtime whose clock stands still, whose parks wait for an unpark
 * alone and whose pools run tasks on the caller's thread (fixed leases schedule no
 * renewal): the model checker then sees every thread the scenario has, and each ends. Run
 * as a program (see {@link InterleavingTests}) it exits with 1 when a run left the lock
 * held.
 */
public final class HandOverScenario {

	private static final int WARM_UP_INVOCATIONS = 20;

	private HandOverScenario() {
	}

	/**
	 * Explores {@code invocations} interleavings.
	 * @throws AssertionError (Lincheck's) naming the interleaving that left the lock held
	 */
	static void check(int invocations) {
		// The engine's DEBUG lines would add the logging library's own shared memory
		// accesses to every interleaving, and which library the class path binds (Spring
		// 6.2's spring-jcl or Commons Logging 1.3) would change what is explored.
		QuietLogs.during(() -> {
			warmUp();
			try {
				Lincheck.runConcurrentTest(invocations, HandOverScenario::race);
			}
			catch (AssertionError ex) {
				throw withThreadDump(ex);
			}
			return null;
		});
	}

	/**
	 * Lincheck instruments the engine's classes lazily, inside the invocations that first
	 * create their objects, and those count against its 30 s invocation timeout: on a
	 * loaded machine the transformation alone outlasted it, reported as "hung" with the
	 * threads in ASM under {@code ensureClassHierarchyIsTransformed}. A few invocations
	 * first, whose outcome does not count (the check explores them again), leave the
	 * classes transformed.
	 */
	private static void warmUp() {
		for (int round = 0; round < 3; round++) {
			try {
				Lincheck.runConcurrentTest(WARM_UP_INVOCATIONS, HandOverScenario::race);
				return;
			}
			catch (AssertionError ex) {
				// A timeout while transforming, or what the check will find again.
			}
		}
	}

	/**
	 * Lincheck reports an invocation that outlived its timeout only as "hung": its
	 * failure holds the threads' stacks, added here so that the report says where they
	 * stood.
	 */
	private static AssertionError withThreadDump(AssertionError failure) {
		try {
			Object lincheckFailure = failure.getClass().getMethod("getFailure$lincheck").invoke(failure);
			Object dump = lincheckFailure.getClass().getMethod("getThreadDump").invoke(lincheckFailure);
			StringBuilder text = new StringBuilder(String.valueOf(failure.getMessage()));
			((java.util.Map<?, ?>) dump).forEach((thread, stack) -> {
				text.append("\n").append(thread);
				for (StackTraceElement frame : (StackTraceElement[]) stack) {
					text.append("\n\tat ").append(frame);
				}
			});
			AssertionError described = new AssertionError(text.toString(), failure);
			return described;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			// Not a timeout: Lincheck's own report says it all.
			return failure;
		}
	}

	public static void main(String[] args) {
		try {
			check(Integer.parseInt(args[0]));
		}
		catch (AssertionError ex) {
			System.out.println(ex.getMessage());
			System.exit(1);
		}
		System.out.println("no interleaving left the lock held");
	}

	static void race() {
		InMemoryLockStore memory = new InMemoryLockStore();
		AtomicReference<Thread> failing = new AtomicReference<>();
		LockEngine engine = new LockEngine(new SecondAttemptFails(memory, failing), Duration.ofSeconds(30),
				new StandingRuntime());
		Duration lease = Duration.ofSeconds(10);
		// Taken before the waiter exists: the model checker explores only the release
		// racing the waiter, not the holder's own acquisition.
		LockHandle held = engine.tryLock("x", Duration.ZERO, lease).orElseThrow();
		Thread waiter = new Thread(() -> {
			try {
				engine.tryLock("x", Duration.ofSeconds(5), lease).ifPresent(LockHandle::close);
			}
			catch (RuntimeException expected) {
				// Its failed attempt ends its acquisition.
			}
		});
		failing.set(waiter);
		waiter.start();
		held.close();
		try {
			waiter.join();
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
		memory.holderOf("x").ifPresent((owner) -> {
			throw new AssertionError("ghost: 'x' is held for " + owner + " after both threads ended");
		});
	}

	/** Fails every acquire of one thread after its first, as a store that refuses it. */
	private static final class SecondAttemptFails extends ForwardingLockStore {

		private final AtomicReference<Thread> failing;

		private final AtomicInteger attempts = new AtomicInteger();

		SecondAttemptFails(InMemoryLockStore delegate, AtomicReference<Thread> failing) {
			super(delegate);
			this.failing = failing;
		}

		@Override
		public AcquireReply acquire(String key, String owner, long leaseMillis) {
			failIfSecond();
			return super.acquire(key, owner, leaseMillis);
		}

		@Override
		public AcquireReply acquire(String key, String owner, long leaseMillis, long waitMillis) {
			failIfSecond();
			return super.acquire(key, owner, leaseMillis, waitMillis);
		}

		private void failIfSecond() {
			if (Thread.currentThread() == this.failing.get() && this.attempts.incrementAndGet() > 1) {
				throw new InvalidDataAccessApiUsageException("Injected: NOPERM no permissions to run the script");
			}
		}

	}

	/**
	 * A runtime for the model checker: no time passes, nothing runs in the background.
	 */
	private static final class StandingRuntime implements EngineRuntime {

		private final AtomicInteger tokens = new AtomicInteger();

		@Override
		public long nanoTime() {
			return 1_000_000_000L;
		}

		@Override
		public void park(Object blocker, long nanos) {
			LockSupport.park(blocker);
		}

		@Override
		public void unpark(Thread thread) {
			LockSupport.unpark(thread);
		}

		@Override
		public TaskPool newTaskPool(String name, int threads, boolean endWhenIdle) {
			return new CallerRuns();
		}

		@Override
		public long jitter(long bound) {
			return 0;
		}

		@Override
		public String newOwnerToken() {
			return "owner" + this.tokens.incrementAndGet();
		}

	}

	/** Runs each task on the caller's thread; schedules nothing. */
	private static final class CallerRuns implements TaskPool {

		private volatile boolean shutDown;

		@Override
		public void execute(Runnable task) {
			if (this.shutDown) {
				throw new RejectedExecutionException("shut down");
			}
			task.run();
		}

		@Override
		public Scheduled schedule(Runnable task, long delayNanos) {
			return () -> {
			};
		}

		@Override
		public int pending() {
			return 0;
		}

		@Override
		public boolean isShutdown() {
			return this.shutDown;
		}

		@Override
		public void shutdown() {
			this.shutDown = true;
		}

		@Override
		public void shutdownNow() {
			this.shutDown = true;
		}

		@Override
		public boolean awaitTermination(long nanos) {
			return true;
		}

	}

}

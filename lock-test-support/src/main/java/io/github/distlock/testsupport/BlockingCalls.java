package io.github.distlock.testsupport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import reactor.blockhound.BlockHound;

/**
 * BlockHound for the reactive tests: installed once per JVM, it watches Reactor's
 * non-blocking threads (Reactor Netty's event loops among them) and Lettuce's I/O
 * threads, and records each blocking call there with its first caller outside the JDK.
 * Recorded, not thrown: an error thrown inside a library's critical section would wedge
 * it (a Lettuce {@code SharedLock} left locked spins its writers forever). A test asserts
 * {@link #recorded()} is empty.
 * <p>
 * Allowed as the short critical sections they are: the JDK timer queue's lock on removal
 * (Reactor's own integration allows offer and take), a thread pool's lock while it adds a
 * worker (the reactive engine hands tasks to the engine's cached pool; contended, that
 * lock parked a WebFlux event loop once, for its bookkeeping only), Lettuce's write lock,
 * held while a command is queued (redis/lettuce#2510), and Netty 4.2's buffer magazines.
 * <p>
 * Needs {@code io.projectreactor.tools:blockhound} on the test class path and
 * {@code -XX:+AllowRedefinitionToAddDeleteMethods} on JDK 13+.
 */
public final class BlockingCalls {

	/** The JVM flag BlockHound needs on JDK 13+. */
	public static final String JVM_FLAG = "-XX:+AllowRedefinitionToAddDeleteMethods";

	private static final List<String> recorded = new CopyOnWriteArrayList<>();

	private static boolean installed;

	private BlockingCalls() {
	}

	/** Installs BlockHound, once per JVM; later calls change nothing. */
	public static synchronized void install() {
		if (installed) {
			return;
		}
		BlockHound.install((builder) -> builder
			.allowBlockingCallsInside("java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue", "remove")
			.allowBlockingCallsInside("java.util.concurrent.ThreadPoolExecutor", "addWorker")
			.allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", "incrementWriters")
			.allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", "decrementWriters")
			.allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$Magazine", "tryAllocate")
			.allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$Magazine", "free")
			.nonBlockingThreadPredicate((current) -> current.or((thread) -> thread.getName().startsWith("lettuce-")))
			.blockingMethodCallback((method) -> recorded.add(Thread.currentThread().getName() + ": " + method + " in "
					+ firstCaller(new Throwable().getStackTrace()))));
		installed = true;
	}

	/**
	 * The blocking calls seen since the last {@link #clear()}.
	 * @return thread, method and caller of each
	 */
	public static List<String> recorded() {
		return List.copyOf(recorded);
	}

	/** Forgets the calls seen so far. */
	public static void clear() {
		recorded.clear();
	}

	/** The first frame outside the JDK, BlockHound and this class: who blocked. */
	private static String firstCaller(StackTraceElement[] stack) {
		for (StackTraceElement frame : stack) {
			String type = frame.getClassName();
			if (!type.startsWith("java.") && !type.startsWith("jdk.") && !type.startsWith("sun.")
					&& !type.startsWith("reactor.blockhound.") && !type.startsWith(BlockingCalls.class.getName())) {
				return frame.toString();
			}
		}
		return "?";
	}

}

package io.github.distlock;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Ends a test JVM still running {@code distlock.fork.timeout} seconds after its tests
 * started (the build sets it, see the parent pom): prints every thread's stack to
 * standard error (the class's {@code -output.txt} report), then exits, so that the build
 * fails at once instead of when CI gives up. Surefire's
 * {@code forkedProcessTimeoutInSeconds} only dumps the threads and stops starting test
 * classes (3.5.4, SUREFIRE-1722): a stalled test would run on. The exit runs the shutdown
 * hooks, which stop the tests' {@code redis-server} processes; if they hang too, the JVM
 * halts {@value #HALT_AFTER_EXIT_SECONDS} s later. Without the property it does nothing.
 */
public final class ForkTimeout implements LauncherSessionListener {

	static final String PROPERTY = "distlock.fork.timeout";

	private static final long HALT_AFTER_EXIT_SECONDS = 30;

	private static final AtomicBoolean started = new AtomicBoolean();

	@Override
	public void launcherSessionOpened(LauncherSession session) {
		long seconds = Long.getLong(PROPERTY, 0);
		if (seconds > 0 && started.compareAndSet(false, true)) {
			daemon("distlock-fork-timeout", () -> {
				pause(Duration.ofSeconds(seconds));
				System.err.println("distlock: this test JVM is still running after " + PROPERTY + "=" + seconds
						+ " s; a test stalled. Ending it. Threads:\n" + threadDump());
				daemon("distlock-fork-halt", () -> {
					pause(Duration.ofSeconds(HALT_AFTER_EXIT_SECONDS));
					Runtime.getRuntime().halt(1);
				});
				System.exit(1);
			});
		}
	}

	static String threadDump() {
		StringBuilder dump = new StringBuilder();
		for (Map.Entry<Thread, StackTraceElement[]> thread : Thread.getAllStackTraces().entrySet()) {
			dump.append('"')
				.append(thread.getKey().getName())
				.append('"')
				.append(thread.getKey().isDaemon() ? " daemon" : "")
				.append(' ')
				.append(thread.getKey().getState())
				.append('\n');
			for (StackTraceElement frame : thread.getValue()) {
				dump.append("\tat ").append(frame).append('\n');
			}
			dump.append('\n');
		}
		return dump.toString();
	}

	private static void daemon(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		thread.start();
	}

	/** Waits without being cut short: a stray interrupt must not end the JVM early. */
	private static void pause(Duration duration) {
		CountDownLatch never = new CountDownLatch(1);
		long deadline = System.nanoTime() + duration.toNanos();
		for (long left = duration.toNanos(); left > 0; left = deadline - System.nanoTime()) {
			try {
				never.await(left, TimeUnit.NANOSECONDS);
			}
			catch (InterruptedException ex) {
				// keep waiting until the deadline
			}
		}
	}

}

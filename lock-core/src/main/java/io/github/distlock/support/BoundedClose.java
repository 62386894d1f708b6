package io.github.distlock.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Closes what distlock opened itself (Lettuce clients, connection factories, connections,
 * subscriptions) without waiting for ever: Lettuce's shutdown can block for good
 * (redis/lettuce#2278: {@code AbstractRedisClient.shutdown} waits on a future without a
 * timeout, which {@code shutdownTimeout} does not bound), and a context that never
 * finishes closing is a rolling restart that never ends.
 * <p>
 * Each close runs on a daemon thread of its own, all at once; the caller waits for them
 * together at most the given time, then goes on, with a WARN naming what did not close
 * (its thread is left behind; being a daemon, it does not keep the JVM alive). A close
 * that throws is logged at WARN and does not stop the others.
 */
public final class BoundedClose {

	/**
	 * How long closing waits unless told otherwise: a healthy Lettuce client shuts down
	 * in well under a second (Spring Data Redis's default shutdown timeout is 100 ms).
	 */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

	private static final Log logger = LogFactory.getLog(BoundedClose.class);

	private BoundedClose() {
	}

	/**
	 * Closes one thing, waiting at most {@code timeout}.
	 * @param what what is closed, for the log, e.g. "the release subscription"
	 * @param close the closing itself
	 * @return whether it finished (normally or by throwing) within {@code timeout}
	 */
	public static boolean close(String what, Runnable close, Duration timeout) {
		return closeAll(List.of(new Closing(what, close)), timeout);
	}

	/**
	 * Closes all of {@code closings} at once, waiting at most {@code timeout} for all of
	 * them together. If the calling thread is interrupted, it stops waiting and keeps the
	 * flag.
	 * @return whether all finished (normally or by throwing) within {@code timeout}
	 */
	public static boolean closeAll(List<Closing> closings, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		List<CountDownLatch> finished = new ArrayList<>();
		for (Closing closing : closings) {
			finished.add(start(closing));
		}
		List<String> unfinished = new ArrayList<>();
		boolean interrupted = false;
		for (int i = 0; i < closings.size(); i++) {
			if (!interrupted) {
				try {
					if (finished.get(i).await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
						continue;
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					interrupted = true;
				}
			}
			if (finished.get(i).getCount() > 0) {
				unfinished.add(closings.get(i).what());
			}
		}
		if (unfinished.isEmpty()) {
			return true;
		}
		logger.warn("Closing " + named(unfinished) + " did not finish "
				+ (interrupted ? "before this thread was interrupted" : "within " + timeout.toMillis() + " ms")
				+ "; going on without it (a Lettuce shutdown can hang, redis/lettuce#2278), its daemon thread"
				+ " 'distlock-close' left behind");
		return false;
	}

	/** The names, each once, with how many there are of it if more than one. */
	private static String named(List<String> unfinished) {
		Map<String, Integer> counts = new LinkedHashMap<>();
		unfinished.forEach((what) -> counts.merge(what, 1, Integer::sum));
		List<String> named = new ArrayList<>();
		counts.forEach((what, count) -> named.add((count > 1) ? what + " (" + count + " of them)" : what));
		return String.join(", ", named);
	}

	private static CountDownLatch start(Closing closing) {
		CountDownLatch finished = new CountDownLatch(1);
		Thread thread = new Thread(() -> {
			try {
				closing.close().run();
			}
			catch (RuntimeException ex) {
				logger.warn("Closing " + closing.what() + " failed", ex);
			}
			finally {
				finished.countDown();
			}
		}, "distlock-close");
		thread.setDaemon(true);
		thread.start();
		return finished;
	}

	/**
	 * One thing to close.
	 *
	 * @param what what is closed, for the log
	 * @param close the closing itself
	 */
	public record Closing(String what, Runnable close) {

	}

}

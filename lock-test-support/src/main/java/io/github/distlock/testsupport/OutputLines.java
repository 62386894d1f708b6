package io.github.distlock.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Keeps every line a process prints on one stream, in order, read by a daemon thread, and
 * lets {@link ClientJvm} wait for a line that matches.
 */
final class OutputLines {

	private final List<String> lines = new ArrayList<>();

	private final Thread reader;

	OutputLines(InputStream stream, String threadName) {
		this.reader = new Thread(() -> read(stream), threadName);
		this.reader.setDaemon(true);
		this.reader.start();
	}

	List<String> lines() {
		synchronized (lines) {
			return List.copyOf(lines);
		}
	}

	/**
	 * The first line from index {@code from} on that matches, printed so far or within
	 * {@code timeout}.
	 * @param process names the process in the message
	 * @param stderrTail what the process printed on standard error, for the message
	 * @throws IllegalStateException if none does in time or the stream ends first
	 */
	String await(int from, Predicate<String> matching, Duration timeout, Supplier<String> process,
			Supplier<String> stderrTail) {
		long deadline = System.nanoTime() + timeout.toNanos();
		synchronized (lines) {
			int next = from;
			while (true) {
				for (; next < lines.size(); next++) {
					if (matching.test(lines.get(next))) {
						return lines.get(next);
					}
				}
				long remaining = deadline - System.nanoTime();
				if (remaining <= 0 || (!reader.isAlive() && next >= lines.size())) {
					throw new IllegalStateException(process.get()
							+ (reader.isAlive() ? " printed no matching line within " + timeout
									: " exited without printing a matching line")
							+ "; last lines:\n"
							+ String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()))
							+ stderrTail.get());
				}
				try {
					TimeUnit.NANOSECONDS.timedWait(lines, Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(100)));
				}
				catch (InterruptedException e) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException("Interrupted while waiting for " + process.get(), e);
				}
			}
		}
	}

	/** Waits until the stream ended and every line was read, at most {@code timeout}. */
	void awaitEnd(Duration timeout) throws InterruptedException {
		reader.join(timeout.toMillis());
	}

	private void read(InputStream stream) {
		try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
			String line;
			while ((line = in.readLine()) != null) {
				synchronized (lines) {
					lines.add(line);
					lines.notifyAll();
				}
			}
		}
		catch (IOException e) {
			// The process died; what was read is kept.
		}
		finally {
			synchronized (lines) {
				lines.notifyAll();
			}
		}
	}

}

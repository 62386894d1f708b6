package io.github.distlock.simulation;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * What happened in a world, line by line with its virtual time: the last lines for a
 * failing seed's report (all of them when a seed is replayed alone), and every failure a
 * simulated thread threw.
 */
final class Trace {

	private final int keep;

	/**
	 * Formatted only when asked for: most worlds pass, and their lines are never read.
	 */
	private final ArrayDeque<Line> lines = new ArrayDeque<>();

	private final List<String> failures = new ArrayList<>();

	private LongSupplier clock = () -> Simulation.START_NANOS;

	/** Once the world ended: its threads unwind concurrently, and write nothing more. */
	private volatile boolean closed;

	/**
	 * @param keep how many of the last lines to keep ({@link Integer#MAX_VALUE}: all)
	 */
	Trace(int keep) {
		this.keep = keep;
	}

	void clock(LongSupplier clock) {
		this.clock = clock;
	}

	/** The virtual time {@code nanos} as seconds since the world began. */
	String time(long nanos) {
		long micros = (nanos - Simulation.START_NANOS) / 1000;
		return String.format("%4d.%06ds", micros / 1_000_000, micros % 1_000_000);
	}

	void close() {
		this.closed = true;
	}

	synchronized void log(String who, String what) {
		if (this.closed) {
			return;
		}
		this.lines.addLast(new Line(this.clock.getAsLong(), who, what));
		if (this.lines.size() > this.keep) {
			this.lines.removeFirst();
		}
	}

	/** A simulated thread threw {@code failure} out of its body. */
	synchronized void failure(String thread, Throwable failure) {
		if (this.closed) {
			return;
		}
		StringWriter stack = new StringWriter();
		failure.printStackTrace(new PrintWriter(stack));
		String line = time(this.clock.getAsLong()) + "  " + thread + " threw " + stack;
		this.failures.add(line);
		log(thread, "threw " + failure);
	}

	synchronized List<String> failures() {
		return List.copyOf(this.failures);
	}

	synchronized String lines() {
		StringBuilder text = new StringBuilder();
		for (Line line : this.lines) {
			text.append((text.length() > 0) ? "\n" : "")
				.append(time(line.nanos))
				.append("  ")
				.append(line.who)
				.append(": ")
				.append(line.what);
		}
		return text.toString();
	}

	private record Line(long nanos, String who, String what) {

	}

}

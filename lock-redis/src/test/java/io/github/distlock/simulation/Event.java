package io.github.distlock.simulation;

/**
 * Something that happens at a moment of virtual time; events of the same moment happen in
 * the order they were scheduled.
 */
final class Event implements Comparable<Event> {

	private final long atNanos;

	private final long sequence;

	private final String what;

	private final Runnable action;

	private boolean cancelled;

	Event(long atNanos, long sequence, String what, Runnable action) {
		this.atNanos = atNanos;
		this.sequence = sequence;
		this.what = what;
		this.action = action;
	}

	long atNanos() {
		return this.atNanos;
	}

	void cancel() {
		this.cancelled = true;
	}

	boolean cancelled() {
		return this.cancelled;
	}

	void run() {
		this.action.run();
	}

	@Override
	public int compareTo(Event other) {
		int byTime = Long.compare(this.atNanos, other.atNanos);
		return (byTime != 0) ? byTime : Long.compare(this.sequence, other.sequence);
	}

	@Override
	public String toString() {
		return this.what;
	}

}

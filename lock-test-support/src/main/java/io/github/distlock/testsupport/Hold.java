package io.github.distlock.testsupport;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One interval during which a client believed it held a lock, as recorded by the client
 * itself: from just after the acquire returned to just before the release was sent, both
 * read with {@link System#nanoTime()}, which on Linux is one monotonic clock for every
 * process of the host, so histories of several JVMs can be compared.
 *
 * @param client who held it (e.g. {@code "jvm3-t5"})
 * @param lockId the lock id
 * @param token the fencing token of the hold
 * @param acquiredNanos {@code System.nanoTime()} just after the acquire returned
 * @param releasedNanos {@code System.nanoTime()} just before the release was sent; for a
 * holder that never released (it was killed), the moment it died
 */
public record Hold(String client, String lockId, long token, long acquiredNanos, long releasedNanos) {

	private static final String PREFIX = "HOLD";

	public Hold {
		Objects.requireNonNull(client, "client");
		Objects.requireNonNull(lockId, "lockId");
		if (releasedNanos - acquiredNanos < 0) {
			throw new IllegalArgumentException("hold of '" + lockId + "' by " + client + " ends before it starts: "
					+ acquiredNanos + " > " + releasedNanos);
		}
	}

	/** Whether this and {@code other} lock the same id during a common instant. */
	public boolean overlaps(Hold other) {
		return lockId.equals(other.lockId) && acquiredNanos - other.releasedNanos < 0
				&& other.acquiredNanos - releasedNanos < 0;
	}

	/** One line, without spaces inside fields, that {@link #parse(String)} reads back. */
	public String toLine() {
		return PREFIX + " " + encode(client) + " " + encode(lockId) + " " + token + " " + acquiredNanos + " "
				+ releasedNanos;
	}

	/** Whether {@code line} is a hold written by {@link #toLine()}. */
	public static boolean isHold(String line) {
		return line.startsWith(PREFIX + " ");
	}

	/** Reads a line written by {@link #toLine()}. */
	public static Hold parse(String line) {
		String[] fields = line.split(" ");
		if (fields.length != 6 || !fields[0].equals(PREFIX)) {
			throw new IllegalArgumentException("not a hold line: '" + line + "'");
		}
		return new Hold(decode(fields[1]), decode(fields[2]), Long.parseLong(fields[3]), Long.parseLong(fields[4]),
				Long.parseLong(fields[5]));
	}

	private static String encode(String text) {
		return URLEncoder.encode(text, StandardCharsets.UTF_8);
	}

	private static String decode(String text) {
		return URLDecoder.decode(text, StandardCharsets.UTF_8);
	}
}

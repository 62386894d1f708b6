package io.github.distlock.fault.nemesis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Jumps the wall clock of one client JVM with libfaketime (Debian package
 * {@code faketime}): the JVM runs with the library preloaded, reading its offset from a
 * file that {@link #jump(Duration)} rewrites; the library reads it again at most a second
 * later.
 * <p>
 * Only the wall clock ({@code CLOCK_REALTIME}: {@code System.currentTimeMillis()},
 * {@code Instant.now()}) jumps. Faking {@code CLOCK_MONOTONIC} too (libfaketime's
 * default) makes {@code System.nanoTime()} of the client return the faked wall time in
 * nanoseconds, so its histories could no longer be compared with other processes', and a
 * monotonic clock that jumps or runs slow breaks the lease's stated assumption (clocks
 * drift less than 1 %) rather than testing it; measured with libfaketime 0.9.10 and Java
 * 17. And its "monotonic fix" (on by default with this glibc) makes every timed wait of
 * the JVM ({@code parkNanos}, {@code Object.wait(ms)}) return at once, so every idle
 * thread spins: {@code FAKETIME_FORCE_MONOTONIC_FIX=0} turns it off (measured: 300,000 10
 * ms parks in 3 s with it, 290 without).
 */
final class ClockJumps {

	static final Path LIBRARY = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");

	private final Path offsetFile;

	private ClockJumps(Path offsetFile) {
		this.offsetFile = offsetFile;
	}

	/** Whether libfaketime is installed where Debian puts it. */
	static boolean available() {
		return Files.isReadable(LIBRARY);
	}

	static String unavailableMessage() {
		return "client clock jumps skipped: no " + LIBRARY + " (apt-get install faketime)";
	}

	/** A clock at offset 0, in a new temporary file. */
	static ClockJumps create() {
		try {
			ClockJumps jumps = new ClockJumps(Files.createTempFile("nemesis-clock-", ".faketime"));
			jumps.jump(Duration.ZERO);
			return jumps;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not create a libfaketime offset file", ex);
		}
	}

	/** The environment of a JVM whose wall clock this controls. */
	Map<String, String> environment() {
		return Map.of("LD_PRELOAD", LIBRARY.toString(), "FAKETIME_TIMESTAMP_FILE", this.offsetFile.toString(),
				"FAKETIME_DONT_FAKE_MONOTONIC", "1", "FAKETIME_FORCE_MONOTONIC_FIX", "0", "FAKETIME_CACHE_DURATION",
				"1");
	}

	/** Sets the wall clock to real time plus {@code offset} (negative: back). */
	void jump(Duration offset) {
		long seconds = offset.toSeconds();
		try {
			Files.writeString(this.offsetFile, ((seconds >= 0) ? "+" : "") + seconds + "\n");
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not write " + this.offsetFile, ex);
		}
	}

	void delete() {
		try {
			Files.deleteIfExists(this.offsetFile);
		}
		catch (IOException ex) {
			// A temporary file.
		}
	}

}

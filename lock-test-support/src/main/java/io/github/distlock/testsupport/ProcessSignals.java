package io.github.distlock.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Unix signals for {@link ClientJvm} and {@link RedisServer}, sent with the {@code kill}
 * command.
 */
final class ProcessSignals {

	private ProcessSignals() {
	}

	static void send(String signal, long pid, Duration timeout) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true)
				.start();
			if (!kill.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				kill.destroyForcibly();
				throw new IllegalStateException("kill -" + signal + " " + pid + " did not finish within " + timeout);
			}
			if (kill.exitValue() != 0) {
				String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
				throw new IllegalStateException("kill -" + signal + " " + pid + " failed: " + output);
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException("Could not run kill -" + signal + " " + pid, e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while sending SIG" + signal + " to " + pid, e);
		}
	}

	/**
	 * Returns once {@code /proc/<pid>/stat} shows the process stopped, or at once where
	 * there is no {@code /proc} (a finished {@code kill} is the best available there) or
	 * the process is gone.
	 */
	static void awaitStopped(long pid, Duration timeout) {
		Path stat = Path.of("/proc", Long.toString(pid), "stat");
		if (!Files.exists(Path.of("/proc/self"))) {
			return;
		}
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			try {
				String content = Files.readString(stat);
				// Format: "pid (comm) state ...", and comm may itself contain ") ".
				char state = content.charAt(content.lastIndexOf(')') + 2);
				if (state == 'T' || state == 't') {
					return;
				}
			}
			catch (IOException e) {
				return;
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("pid " + pid + " not stopped " + timeout + " after SIGSTOP");
			}
			try {
				Thread.sleep(5);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for pid " + pid + " to stop", e);
			}
		}
	}

}

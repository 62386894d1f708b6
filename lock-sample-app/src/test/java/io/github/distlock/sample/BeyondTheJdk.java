package io.github.distlock.sample;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test needs beyond a JDK, such as a browser or a database. Where it is missing the test is skipped with a
 * message naming what to install, so {@code ./mvnw -B verify} passes on a machine with only a JDK. In CI
 * ({@code CI=true}) {@code .ci/run} installs it, and a missing one fails the test instead of skipping it quietly.
 */
public final class BeyondTheJdk {

	private BeyondTheJdk() {
	}

	/**
	 * Returns when {@code available}, otherwise skips the test, or fails it in CI.
	 * @param available whether the test has what it needs
	 * @param missing what is missing and where it was looked for
	 * @param install what to install to provide it
	 */
	public static void require(boolean available, String missing, String install) {
		if (!available) {
			missing(missing, install, null);
		}
	}

	/**
	 * Skips the test, or fails it in CI, because something it needs is missing.
	 * @param missing what is missing and where it was looked for
	 * @param install what to install to provide it
	 * @param cause the error that showed it missing, or {@code null}
	 */
	public static void missing(String missing, String install, @Nullable Throwable cause) {
		if (inCi()) {
			throw new AssertionError("CI=true, so this test must run, but: " + missing + ". CI must " + install
					+ " (.ci/run does).", cause);
		}
		Assumptions.abort(() -> "Skipped: " + missing + ". To run this test, " + install
				+ ". With CI=true it fails instead of skipping.");
	}

	private static boolean inCi() {
		return "true".equalsIgnoreCase(System.getenv("CI"));
	}

}

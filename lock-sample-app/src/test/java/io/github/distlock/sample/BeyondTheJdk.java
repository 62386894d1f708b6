package io.github.distlock.sample;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;

/**
 * What a test needs beyond a JDK, such as a browser or a database. Where it is missing
 * the test is skipped with a message naming what to install, so {@code ./mvnw -B verify}
 * passes on a machine with only a JDK. In CI ({@code CI=true}) {@code .ci/run} installs
 * it, and a missing one fails the test instead of skipping it quietly.
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
			failInCi(missing, install, null);
			Assumptions.abort(skipReason(missing, install));
		}
	}

	/**
	 * The result of an {@link org.junit.jupiter.api.extension.ExecutionCondition} for a
	 * test class that cannot start without what is missing (a Spring context needing a
	 * database): disabled with a message naming what to install, or in CI an error that
	 * fails the class. Surefire reports a class disabled this way as skipped with its
	 * reason, where an assumption failing in {@code @BeforeAll} would vanish from the
	 * report.
	 * @param missing what is missing and where it was looked for
	 * @param install what to install to provide it
	 * @param cause the error that showed it missing, or {@code null}
	 * @return the disabled result
	 */
	public static ConditionEvaluationResult disabled(String missing, String install, @Nullable Throwable cause) {
		failInCi(missing, install, cause);
		return ConditionEvaluationResult.disabled(skipReason(missing, install));
	}

	private static void failInCi(String missing, String install, @Nullable Throwable cause) {
		if (inCi()) {
			throw new AssertionError(
					"CI=true, so this test must run, but: " + missing + ". CI must " + install + " (.ci/run does).",
					cause);
		}
	}

	private static String skipReason(String missing, String install) {
		return "Skipped: " + missing + ". To run this test, " + install
				+ ". With CI=true it fails instead of skipping.";
	}

	private static boolean inCi() {
		return "true".equalsIgnoreCase(System.getenv("CI"));
	}

}

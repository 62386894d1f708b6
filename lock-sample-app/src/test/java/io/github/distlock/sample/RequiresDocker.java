package io.github.distlock.sample;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * Disables a test class where no Docker engine answers, with a message naming what to
 * install (Testcontainers' own {@code disabledWithoutDocker} names nothing). Unlike
 * {@link BeyondTheJdk}, also with {@code CI=true}: CI has no Docker ({@code .ci/run}
 * installs none), and {@code @LocalRedisServer} tests the same connection with a
 * {@code redis-server} process.
 */
public final class RequiresDocker implements ExecutionCondition {

	@Override
	public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
		if (DockerClientFactory.instance().isDockerAvailable()) {
			return ConditionEvaluationResult.enabled("a Docker engine answers");
		}
		return ConditionEvaluationResult.disabled("Skipped: no Docker engine answers (Testcontainers looks at"
				+ " DOCKER_HOST, /var/run/docker.sock and ~/.testcontainers.properties). To run this test, install"
				+ " and start Docker (e.g. the Debian package docker.io). Skipped with CI=true too: CI has no Docker.");
	}

}

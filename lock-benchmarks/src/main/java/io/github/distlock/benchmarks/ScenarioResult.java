package io.github.distlock.benchmarks;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of one scenario for one implementation.
 *
 * @param error why it could not be measured, or {@code null}
 */
record ScenarioResult(String scenario, String implementation, Map<String, Object> metrics, @Nullable String error) {

	double number(String metric) {
		Object value = metrics.get(metric);
		return value instanceof Number number ? number.doubleValue() : Double.NaN;
	}
}

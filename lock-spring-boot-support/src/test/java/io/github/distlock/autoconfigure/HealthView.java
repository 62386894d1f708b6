package io.github.distlock.autoconfigure;

import java.util.Map;

/**
 * What a Boot line's health indicator of the locks reported, in types of neither line:
 * for the tests of {@code lock-spring-boot-support}, which run on both (see
 * {@code LineUnderTest}).
 *
 * @param status the status code ({@code UP}, {@code DOWN})
 * @param details the details
 */
public record HealthView(String status, Map<String, Object> details) {

}

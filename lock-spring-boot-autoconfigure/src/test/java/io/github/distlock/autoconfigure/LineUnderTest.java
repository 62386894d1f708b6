package io.github.distlock.autoconfigure;

import io.github.distlock.LockInspection;
import io.github.distlock.boot4.actuate.DistributedLockHealthIndicator;
import io.github.distlock.boot4.autoconfigure.DistributedLockAutoConfiguration;
import io.github.distlock.boot4.autoconfigure.DistributedLockHealthContributorAutoConfiguration;
import io.github.distlock.boot4.autoconfigure.DistributedLockMetricsAutoConfiguration;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.health.contributor.Health;
import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;

/**
 * What lock-spring-boot-support's tests need from the Boot line they run on, here Spring
 * Boot 4: the names of Boot's own auto-configurations, its health API and its endpoint
 * JSON mapper. lock-spring-boot3-autoconfigure has the same class for Boot 3.5.
 */
public final class LineUnderTest {

	/** The major version of Spring Boot of this line. */
	public static final String BOOT_LINE = "4";

	/** This line's auto-configuration module. */
	public static final String AUTOCONFIGURE_ARTIFACT = "lock-spring-boot-autoconfigure";

	/** Its {@code Automatic-Module-Name}. */
	public static final String AUTOCONFIGURE_MODULE_NAME = "io.github.distlock.boot4.autoconfigure";

	/** Boot's Redis auto-configuration. */
	public static final Class<?> REDIS = DataRedisAutoConfiguration.class;

	/** Boot's observation and metrics auto-configurations (a simple meter registry). */
	public static final Class<?>[] OBSERVATION_AND_METRICS = { ObservationAutoConfiguration.class,
			MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
			CompositeMeterRegistryAutoConfiguration.class };

	/** distlock's auto-configuration of this line: the locks and their interception. */
	public static final Class<?> LOCKS = DistributedLockAutoConfiguration.class;

	/** distlock's meters auto-configuration of this line. */
	public static final Class<?> LOCK_METRICS = DistributedLockMetricsAutoConfiguration.class;

	/** distlock's health contributor auto-configuration of this line. */
	public static final Class<?> LOCK_HEALTH = DistributedLockHealthContributorAutoConfiguration.class;

	/** distlock's health indicator on this line's health API. */
	public static final Class<?> LOCK_HEALTH_INDICATOR = DistributedLockHealthIndicator.class;

	/** The health contributor type of the line. */
	public static final Class<?> HEALTH_INDICATOR = HealthIndicator.class;

	// As Boot 4's JacksonEndpointAutoConfiguration configures it: nulls are left out.
	private static final JsonMapper ENDPOINT_JSON = JsonMapper.builder()
		.changeDefaultPropertyInclusion((inclusion) -> inclusion.withValueInclusion(JsonInclude.Include.NON_NULL)
			.withContentInclusion(JsonInclude.Include.NON_NULL))
		.build();

	private LineUnderTest() {
	}

	/**
	 * The health of the locks as this line's indicator reports it.
	 * @param lockService what the indicator checks
	 * @return its status and details
	 */
	public static HealthView health(LockInspection lockService) {
		return view(new DistributedLockHealthIndicator(lockService).health());
	}

	/**
	 * The health reported by the indicator bean of a context.
	 * @param context the context
	 * @return its status and details
	 */
	public static HealthView health(BeanFactory context) {
		return view(context.getBean(DistributedLockHealthIndicator.class).health());
	}

	private static HealthView view(Health health) {
		return new HealthView(health.getStatus().getCode(), health.getDetails());
	}

	/**
	 * Renders an endpoint's answer as Actuator renders it on this line.
	 * @param value the answer
	 * @return its JSON
	 */
	public static String toEndpointJson(Object value) {
		return ENDPOINT_JSON.writeValueAsString(value);
	}

}

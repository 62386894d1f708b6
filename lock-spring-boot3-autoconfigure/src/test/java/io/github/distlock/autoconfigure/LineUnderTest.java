package io.github.distlock.autoconfigure;

import io.github.distlock.LockInspection;
import io.github.distlock.boot3.actuate.DistributedLockHealthIndicator;
import io.github.distlock.boot3.autoconfigure.DistributedLockAutoConfiguration;
import io.github.distlock.boot3.autoconfigure.DistributedLockHealthContributorAutoConfiguration;
import io.github.distlock.boot3.autoconfigure.DistributedLockMetricsAutoConfiguration;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.actuate.health.Health;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;

/**
 * What lock-spring-boot-support's tests need from the Boot line they run on, here Spring
 * Boot 3.5: the names of Boot's own auto-configurations, its health API and its endpoint
 * JSON mapper. lock-spring-boot-autoconfigure has the same class for Boot 4.
 */
public final class LineUnderTest {

	/** The major version of Spring Boot of this line. */
	public static final String BOOT_LINE = "3";

	/** This line's auto-configuration module. */
	public static final String AUTOCONFIGURE_ARTIFACT = "lock-spring-boot3-autoconfigure";

	/** Its {@code Automatic-Module-Name}. */
	public static final String AUTOCONFIGURE_MODULE_NAME = "io.github.distlock.boot3.autoconfigure";

	/** Boot's Redis auto-configuration. */
	public static final Class<?> REDIS = RedisAutoConfiguration.class;

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

	// As Boot 3.5's JacksonEndpointAutoConfiguration configures it: nulls left out, dates
	// as ISO-8601 text.
	private static final ObjectMapper ENDPOINT_JSON = new ObjectMapper().registerModule(new JavaTimeModule())
		.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
		.setSerializationInclusion(JsonInclude.Include.NON_NULL);

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
		try {
			return ENDPOINT_JSON.writeValueAsString(value);
		}
		catch (JsonProcessingException ex) {
			throw new IllegalStateException(ex);
		}
	}

}

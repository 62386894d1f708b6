package io.github.distlock.interceptor;

import io.github.distlock.autoconfigure.LineUnderTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockContext;
import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.redis.RedisLockClients;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Hostile input through {@link DistributedLock @DistributedLock}: argument values are
 * data, never code; expressions that could run code are refused at startup, in every
 * attribute; keys that cannot be evaluated fail closed.
 */
class HostileInputTests {

	/** Set by a SpEL template if one were ever evaluated. */
	static final String MARKER_PROPERTY = "distlock.test.marker";

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	private LockEngine otherInstance;

	private ApplicationContextRunner contextRunner;

	@BeforeEach
	void setUp() {
		System.clearProperty(MARKER_PROPERTY);
		this.otherInstance = this.clients.newService();
		this.contextRunner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class, LineUnderTest.REDIS,
					AopAutoConfiguration.class, LineUnderTest.LOCKS))
			.withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
					"spring.data.redis.timeout=2s", "distributed-lock.wait-time=0");
	}

	@AfterEach
	void tearDown() {
		System.clearProperty(MARKER_PROPERTY);
	}

	@Test
	void hostileArgumentValuesLockTheirOwnIdAndNothingElse(@TempDir Path dir) {
		Path marker = dir.resolve("pwned");
		List<String> values = List.of("T(java.lang.Runtime).getRuntime().exec('touch " + marker + "')",
				"#{T(java.lang.Runtime).getRuntime().exec('touch " + marker + "')}", "${user.home}", "#sku", "'+'",
				"{a}", "}{", "a:b", "%7B", "\r\nERROR forged", "\u202Eevil", "\uD83D\uDE00", "x".repeat(1_000_000));
		this.contextRunner.withUserConfiguration(Services.class).run((context) -> {
			Orders orders = context.getBean(Orders.class);
			for (String value : values) {
				assertThat(orders.lockedId(value)).isEqualTo("order:" + value);
				// The lock was that id's, in the one id space shared with LockService.
				try (LockHandle held = this.otherInstance.lock("order:" + value, Duration.ZERO)) {
					assertThatException().isThrownBy(() -> orders.lockedId(value));
				}
			}
			assertThat(orders.lockedId(new Sneaky())).isEqualTo("order:" + Sneaky.TEXT);
			assertThat(Files.exists(marker)).isFalse();
			assertThat(redis.keys("distlock:*"))
				.allMatch((key) -> (key.endsWith(":fence") || key.endsWith(":released")) && key.length() < 300);
		});
	}

	@Test
	void keysThatCannotBeEvaluatedFailClosed() {
		this.contextRunner.withUserConfiguration(Services.class).run((context) -> {
			Orders orders = context.getBean(Orders.class);
			assertThatIllegalArgumentException().isThrownBy(() -> orders.lockedId(null))
				.withMessageContaining("evaluated to null");
			assertThatIllegalArgumentException().isThrownBy(() -> orders.lockedId("")).withMessageContaining("blank");
			assertThatIllegalArgumentException().isThrownBy(() -> orders.lockedId(" \t\r\n"))
				.withMessageContaining("blank");
			// A property of a null argument, and the reflective path to a class, are
			// refused at call time.
			assertThatException().isThrownBy(() -> orders.byCustomer(null));
			assertThatException().isThrownBy(() -> orders.byClassName("x"));
			assertThat(orders.invocations()).isZero();
		});
	}

	@Test
	void aSpelTemplateInNameOrDurationFailsAtStartupWithoutRunning() {
		for (Class<?> bean : List.of(TemplateName.class, TemplateWaitTime.class, TemplateLeaseTime.class)) {
			this.contextRunner.withBean(bean).run((context) -> {
				assertThat(context).hasFailed();
				assertThat(rootMessage(context.getStartupFailure())).startsWith("Invalid @DistributedLock on ")
					.contains(bean.getSimpleName())
					.contains("#{")
					.contains("only ${...} placeholders");
			});
			assertThat(System.getProperty(MARKER_PROPERTY)).as("evaluated by %s", bean.getSimpleName()).isNull();
		}
	}

	@Test
	void templatesAndPlaceholdersInAKeyAreRejectedAtStartup() {
		for (Class<?> bean : List.of(TemplateKey.class, PlaceholderKey.class)) {
			this.contextRunner.withBean(bean).run((context) -> {
				assertThat(context).hasFailed();
				assertThat(rootMessage(context.getStartupFailure())).startsWith("Invalid @DistributedLock on ")
					.contains(bean.getSimpleName())
					.contains("key '");
			});
		}
		assertThat(System.getProperty(MARKER_PROPERTY)).isNull();
	}

	@Test
	void absurdOrUnparsableDefaultDurationsFailAtStartupNamingTheProperty() {
		for (String property : List.of("distributed-lock.wait-time=2d", "distributed-lock.wait-time=soon",
				"distributed-lock.lease-time=-5s", "distributed-lock.lease-time=0ms")) {
			this.contextRunner.withPropertyValues(property).run((context) -> {
				assertThat(context).hasFailed();
				assertThat(allMessages(context.getStartupFailure()))
					.contains(property.substring(0, property.indexOf('=')));
			});
		}
	}

	private static String rootMessage(Throwable failure) {
		Throwable current = failure;
		while (current.getCause() != null
				&& !String.valueOf(current.getMessage()).startsWith("Invalid @DistributedLock")) {
			current = current.getCause();
		}
		return String.valueOf(current.getMessage());
	}

	private static String allMessages(Throwable failure) {
		StringBuilder text = new StringBuilder();
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			text.append(cause.getMessage()).append('\n');
		}
		return text.toString();
	}

	@Configuration(proxyBeanMethods = false)
	static class Services {

		@Bean
		Orders orders(LockService lockService) {
			return new Orders();
		}

	}

	/** An argument whose text looks like code. */
	static final class Sneaky {

		static final String TEXT = "#{T(java.lang.System).setProperty('" + MARKER_PROPERTY + "', 'pwned')}";

		@Override
		public String toString() {
			return TEXT;
		}

	}

	record Customer(String id) {

		public String getId() {
			return this.id;
		}

	}

	static class Orders {

		final AtomicInteger invocations = new AtomicInteger();

		public int invocations() {
			return this.invocations.get();
		}

		@DistributedLock(name = "order", key = "#order")
		public String lockedId(Object order) {
			this.invocations.incrementAndGet();
			return LockContext.current().orElseThrow().lockId();
		}

		@DistributedLock(name = "customer", key = "#customer.id")
		public String byCustomer(Customer customer) {
			this.invocations.incrementAndGet();
			return LockContext.current().orElseThrow().lockId();
		}

		@DistributedLock(name = "class", key = "#sku.class.name")
		public String byClassName(String sku) {
			this.invocations.incrementAndGet();
			return LockContext.current().orElseThrow().lockId();
		}

	}

	static class TemplateName {

		@DistributedLock(name = "#{T(java.lang.System).setProperty('" + MARKER_PROPERTY + "', 'name')}")
		public void run() {
		}

	}

	static class TemplateWaitTime {

		@DistributedLock(waitTime = "#{T(java.lang.System).setProperty('" + MARKER_PROPERTY + "', '5s')}")
		public void run() {
		}

	}

	static class TemplateLeaseTime {

		@DistributedLock(leaseTime = "#{T(java.lang.System).setProperty('" + MARKER_PROPERTY + "', '5s')}")
		public void run() {
		}

	}

	static class TemplateKey {

		@DistributedLock(key = "#{T(java.lang.System).setProperty('" + MARKER_PROPERTY + "', 'key')}")
		public void run(String sku) {
		}

	}

	static class PlaceholderKey {

		@DistributedLock(key = "${user.home}")
		public void run(String sku) {
		}

	}

}

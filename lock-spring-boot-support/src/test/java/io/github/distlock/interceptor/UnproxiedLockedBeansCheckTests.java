package io.github.distlock.interceptor;

import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.distlock.DistributedLock;
import io.github.distlock.autoconfigure.LineUnderTest;
import io.github.distlock.redis.CapturedLogs;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.PriorityOrdered;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bean with {@code @DistributedLock} methods that the lock advisor could not proxy is
 * named in a WARN at startup, with its methods; proxied beans are not.
 */
class UnproxiedLockedBeansCheckTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LineUnderTest.LOCKS))
		.withPropertyValues("distributed-lock.store=in-memory");

	@Test
	void warnsAboutABeanCreatedBeforeTheAutoProxyCreator() {
		try (CapturedLogs logs = CapturedLogs.from(Level.WARN)) {
			this.contextRunner.withUserConfiguration(EarlyBeanConfiguration.class).run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(AopUtils.isAopProxy(context.getBean(Ledger.class))).isFalse();
				assertThat(AopUtils.isAopProxy(context.getBean(Proxied.class))).isTrue();
			});
			List<String> warnings = warnings(logs);
			assertThat(warnings).singleElement()
				.asString()
				.startsWith("Bean 'ledger' (" + Ledger.class.getName() + ") has @DistributedLock methods")
				.contains("they run WITHOUT a lock: " + Ledger.class.getName() + ".post(String)")
				.contains("BeanPostProcessor");
		}
	}

	@Test
	void warnsAboutASingletonRegisteredWithoutPostProcessing() {
		try (CapturedLogs logs = CapturedLogs.from(Level.WARN)) {
			this.contextRunner
				.withInitializer((context) -> context.getBeanFactory().registerSingleton("ledger", new Ledger()))
				.run((context) -> assertThat(context).hasNotFailed());
			assertThat(warnings(logs)).singleElement().asString().startsWith("Bean 'ledger' (");
		}
	}

	@Test
	void leavesMocksRegisteredInPlaceOfABeanAlone() {
		try (CapturedLogs logs = CapturedLogs.from(Level.WARN)) {
			this.contextRunner
				.withInitializer(
						(context) -> context.getBeanFactory().registerSingleton("ledger", Mockito.mock(Ledger.class)))
				.run((context) -> assertThat(context).hasNotFailed());
			assertThat(warnings(logs)).isEmpty();
		}
	}

	@Test
	void staysQuietWhenEveryLockedBeanIsProxied() {
		try (CapturedLogs logs = CapturedLogs.from(Level.WARN)) {
			this.contextRunner.withBean(Proxied.class).run((context) -> assertThat(context).hasNotFailed());
			assertThat(warnings(logs)).isEmpty();
		}
	}

	@Test
	void isNotRegisteredWhenLocksAreDisabled() {
		this.contextRunner.withPropertyValues("distributed-lock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(UnproxiedLockedBeansCheck.class));
	}

	private static List<String> warnings(CapturedLogs logs) {
		return logs.atLeast(Level.WARN, UnproxiedLockedBeansCheck.class.getName())
			.stream()
			.map(ILoggingEvent::getFormattedMessage)
			.toList();
	}

	@Configuration(proxyBeanMethods = false)
	static class EarlyBeanConfiguration {

		@Bean
		static Ledger ledger() {
			return new Ledger();
		}

		/**
		 * Depends on the ledger, so the ledger is created with the post-processors,
		 * before the auto-proxy creator (an ordered one) is registered.
		 */
		@Bean
		static AuditingPostProcessor auditingPostProcessor(Ledger ledger) {
			return new AuditingPostProcessor();
		}

		@Bean
		Proxied proxied() {
			return new Proxied();
		}

	}

	static class AuditingPostProcessor implements BeanPostProcessor, PriorityOrdered {

		@Override
		public int getOrder() {
			return 0;
		}

	}

	static class Ledger {

		@DistributedLock(key = "#account")
		public void post(String account) {
		}

	}

	static class Proxied {

		@DistributedLock
		public void run() {
		}

	}

}

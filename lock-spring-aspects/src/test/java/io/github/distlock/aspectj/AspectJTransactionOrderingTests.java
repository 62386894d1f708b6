package io.github.distlock.aspectj;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import io.github.distlock.config.EnableDistributedLock;
import io.github.distlock.LockService;
import io.github.distlock.testsupport.RedisServerExtension;
import org.aspectj.lang.reflect.AjTypeSystem;
import org.aspectj.lang.reflect.DeclarePrecedence;
import org.aspectj.lang.reflect.TypePattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.annotation.EnableTransactionManagement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * In ASPECTJ mode the lock still wraps a real {@code @Transactional} on the same method,
 * with transactions in AspectJ mode too (Spring's {@code AnnotationTransactionAspect},
 * woven into the same method): it is held when the transaction takes its connection and
 * still held when the transaction has committed or rolled back, as another instance sees
 * it. The order comes from the lock aspect's {@code declare precedence}, not from weaving
 * order.
 */
class AspectJTransactionOrderingTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private static ConfigurableApplicationContext otherInstance;

	private static LockService observer;

	private final List<String> events = new CopyOnWriteArrayList<>();

	@BeforeAll
	static void startOtherInstance() {
		otherInstance = new SpringApplicationBuilder(OtherInstance.class).web(WebApplicationType.NONE)
			.run("--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
					"--spring.main.banner-mode=off");
		observer = otherInstance.getBean(LockService.class);
	}

	@AfterAll
	static void stopOtherInstance() {
		otherInstance.close();
	}

	@Test
	void theLockIsHeldBeforeTheTransactionBeginsAndAfterItCommits() {
		contextRunner().run((context) -> {
			TransactionalStock stock = context.getBean(TransactionalStock.class);
			stock.buy("apple");
			assertThat(this.events).containsExactly("begin, locked=true", "commit, locked=true");
			assertThat(observer.isLocked("stock:apple")).isFalse();
			assertThat(context.getBean(JdbcTemplate.class).queryForObject("select amount from product", Integer.class))
				.isEqualTo(99);
		});
	}

	@Test
	void theLockIsHeldUntilARollbackCompleted() {
		contextRunner().run((context) -> {
			TransactionalStock stock = context.getBean(TransactionalStock.class);
			assertThatIllegalStateException().isThrownBy(() -> stock.buyAndFail("apple")).withMessage("roll back");
			assertThat(this.events).containsExactly("begin, locked=true", "rollback, locked=true");
			assertThat(observer.isLocked("stock:apple")).isFalse();
			assertThat(context.getBean(JdbcTemplate.class).queryForObject("select amount from product", Integer.class))
				.isEqualTo(100);
		});
	}

	/**
	 * Without the declaration AspectJ's order of two aspects on one join point is
	 * undefined; this build happens to weave the lock outside anyway, so the declaration
	 * is checked on its own.
	 */
	@Test
	void theLockAspectTakesPrecedenceOverSpringsTransactionAndCacheAspects() {
		DeclarePrecedence[] declared = AjTypeSystem.getAjType(DistributedLockAspect.class).getDeclarePrecedence();
		assertThat(declared).hasSize(1);
		assertThat(Arrays.stream(declared[0].getPrecedenceOrder()).map(TypePattern::asString)).containsExactly(
				DistributedLockAspect.class.getName(), "org.springframework.transaction.aspectj..*",
				"org.springframework.cache.aspectj..*");
	}

	private ApplicationContextRunner contextRunner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LineUnderTest.redisAutoConfiguration(),
					LineUnderTest.lockAutoConfiguration()))
			.withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port())
			.withBean(Events.class, () -> new Events(this.events, observer))
			.withUserConfiguration(AspectJModes.class, StockConfiguration.class);
	}

	/**
	 * What the transactions saw, and the other instance that judges whether the lock is
	 * held.
	 */
	record Events(List<String> list, LockService observer) {
	}

	@Configuration(proxyBeanMethods = false)
	@EnableDistributedLock(mode = AdviceMode.ASPECTJ)
	@EnableTransactionManagement(mode = AdviceMode.ASPECTJ)
	static class AspectJModes {

	}

	@Configuration(proxyBeanMethods = false)
	static class StockConfiguration {

		/**
		 * A transaction begins when it takes its connection: record whether the lock is
		 * held then.
		 */
		@Bean
		DataSource dataSource(Events events) {
			DataSource database = new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
				.generateUniqueName(true)
				.addScript("classpath:stock.sql")
				.build();
			return new DelegatingDataSource(database) {
				@Override
				public Connection getConnection() throws SQLException {
					events.list().add("begin, locked=" + events.observer().isLocked("stock:apple"));
					return super.getConnection();
				}
			};
		}

		@Bean
		JdbcTemplate jdbcTemplate(DataSource dataSource) {
			return new JdbcTemplate(dataSource);
		}

		@Bean
		DataSourceTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

		@Bean
		TransactionalStock stock(JdbcTemplate jdbc, Events events) {
			return new TransactionalStock(jdbc, events.observer(), events.list());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportRedisAndLockAutoConfiguration
	static class OtherInstance {

	}

}

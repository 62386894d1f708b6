package io.github.distlock.interceptor;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import io.github.distlock.DistributedLock;
import io.github.distlock.autoconfigure.LineUnderTest;
import io.github.distlock.core.LockEngine;
import io.github.distlock.store.InMemoryLockStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The lock wraps a real {@code @Transactional} on the same method by default: it is held
 * when the transaction takes its connection and still held when the transaction has
 * committed or rolled back. {@code distributed-lock.order} turns this around.
 */
class TransactionOrderingTests {

	private final InMemoryLockStore store = new InMemoryLockStore();

	private LockEngine observer;

	@BeforeEach
	void setUp() {
		this.observer = new LockEngine(this.store, Duration.ofSeconds(30));
	}

	@AfterEach
	void shutDownObserver() {
		this.observer.destroy();
	}

	private ApplicationContextRunner runner(Class<?> transactionConfiguration) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LineUnderTest.LOCKS))
			.withPropertyValues("distributed-lock.store=in-memory")
			.withBean(InMemoryLockStore.class, () -> this.store)
			.withBean(Observations.class, () -> new Observations(this.observer))
			.withUserConfiguration(transactionConfiguration, StockConfiguration.class);
	}

	@Test
	void byDefaultTheLockIsHeldBeforeTheTransactionBeginsAndAfterItCommits() {
		runner(DefaultOrderTransactions.class).run((context) -> {
			Stock stock = context.getBean(Stock.class);
			stock.decrement("apple");
			assertThat(stock.events()).containsExactly("begin, locked=true", "commit, locked=true");
			assertThat(this.observer.isLocked("stock:apple")).isFalse();
			assertThat(context.getBean(JdbcTemplate.class).queryForObject("select amount from product", Integer.class))
				.isEqualTo(99);
		});
	}

	@Test
	void byDefaultTheLockIsHeldUntilARollbackCompleted() {
		runner(DefaultOrderTransactions.class).run((context) -> {
			Stock stock = context.getBean(Stock.class);
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> stock.decrementAndFail("apple"));
			assertThat(stock.events()).containsExactly("begin, locked=true", "rollback, locked=true");
			assertThat(this.observer.isLocked("stock:apple")).isFalse();
			assertThat(context.getBean(JdbcTemplate.class).queryForObject("select amount from product", Integer.class))
				.isEqualTo(100);
		});
	}

	@Test
	void anOrderAfterTransactionsLocksInsideTheTransaction() {
		runner(TransactionsFirst.class).withPropertyValues("distributed-lock.order=" + Ordered.LOWEST_PRECEDENCE)
			.run((context) -> {
				Stock stock = context.getBean(Stock.class);
				stock.decrement("apple");
				assertThat(stock.events()).containsExactly("begin, locked=false", "commit, locked=false");
			});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class DefaultOrderTransactions {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement(order = 0)
	static class TransactionsFirst {

	}

	@Configuration(proxyBeanMethods = false)
	static class StockConfiguration {

		@Bean
		Stock stock(JdbcTemplate jdbc, Observations observations) {
			return new Stock(jdbc, observations);
		}

		@Bean
		DataSource dataSource(Observations observations) {
			DataSource database = new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
				.generateUniqueName(true)
				.addScript("classpath:stock.sql")
				.build();
			// A transaction begins when it takes its connection: record whether the lock
			// is held then.
			return new DelegatingDataSource(database) {
				@Override
				public Connection getConnection() throws SQLException {
					observations.events.add("begin, locked=" + observations.observer.isLocked("stock:apple"));
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

	}

	/** What the transaction saw, judged by another instance's view of the lock. */
	static class Observations {

		final List<String> events = new CopyOnWriteArrayList<>();

		final LockEngine observer;

		Observations(LockEngine observer) {
			this.observer = observer;
		}

	}

	static class Stock {

		private final JdbcTemplate jdbc;

		private final Observations observations;

		Stock(JdbcTemplate jdbc, Observations observations) {
			this.jdbc = jdbc;
			this.observations = observations;
		}

		public List<String> events() {
			return this.observations.events;
		}

		@DistributedLock(name = "stock", key = "#name")
		@Transactional
		public void decrement(String name) {
			this.jdbc.update("update product set amount = amount - 1 where name = ?", name);
			recordCompletion();
		}

		@DistributedLock(name = "stock", key = "#name")
		@Transactional
		public void decrementAndFail(String name) {
			this.jdbc.update("update product set amount = amount - 1 where name = ?", name);
			recordCompletion();
			throw new IllegalStateException("roll back");
		}

		private void recordCompletion() {
			Observations seen = this.observations;
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void afterCompletion(int status) {
					seen.events.add(((status == STATUS_COMMITTED) ? "commit" : "rollback") + ", locked="
							+ seen.observer.isLocked("stock:apple"));
				}
			});
		}

	}

}

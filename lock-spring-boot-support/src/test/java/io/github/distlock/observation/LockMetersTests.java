package io.github.distlock.observation;

import io.github.distlock.autoconfigure.LineUnderTest;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.OnLockFailure;
import io.github.distlock.redis.RedisLockClients;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The meters an application gets with Spring Boot's Micrometer auto-configuration: names,
 * tags, and a number that does not grow with the number of lock keys.
 */
class LockMetersTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	private ApplicationContextRunner contextRunner;

	@BeforeEach
	void setUp() {
		this.contextRunner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LineUnderTest.OBSERVATION_AND_METRICS))
			.withConfiguration(AutoConfigurations.of(LineUnderTest.REDIS, AopAutoConfiguration.class,
					LineUnderTest.LOCKS, LineUnderTest.LOCK_METRICS))
			.withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
					"spring.data.redis.timeout=2s")
			.withBean(Stock.class);
	}

	@Test
	void acquireAndHoldTimersAreTaggedWithNameOutcomeAndException() {
		this.contextRunner.run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			Stock stock = context.getBean(Stock.class);
			stock.buy("apple");
			LockEngine other = this.clients.newService();
			try (LockHandle held = other.lock("stock:pear", Duration.ZERO)) {
				assertThat(stock.buyIfFree("pear")).isFalse();
			}
			assertThat(timer(meters, "distlock.acquire", "stock", "acquired").count()).isEqualTo(1);
			assertThat(timer(meters, "distlock.acquire", "stock", "skipped").count()).isEqualTo(1);
			assertThat(timer(meters, "distlock.hold", "stock", "released").count()).isEqualTo(1);
			assertThat(meters.get("distlock.acquire").timers())
				.allSatisfy((timer) -> assertThat(tagKeys(timer)).contains("name", "outcome", "exception")
					.doesNotContain("lock.id", "lock.fencing-token"));
		});
	}

	/**
	 * As docs/operations.md says (issue 39): a timer records when its observation ends,
	 * so {@code distlock.hold} appears with the first release, not the first acquisition.
	 */
	@Test
	void theHoldTimerAppearsWithTheFirstRelease() {
		this.contextRunner.run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			LockService locks = context.getBean(LockService.class);
			LockHandle handle = locks.lock("stock:fig", Duration.ZERO);
			assertThat(meters.find("distlock.acquire").timers()).isNotEmpty();
			assertThat(meters.find("distlock.hold.active").longTaskTimer().activeTasks()).isOne();
			assertThat(meters.find("distlock.hold").timers()).isEmpty();
			handle.close();
			assertThat(timer(meters, "distlock.hold", "stock", "released").count()).isEqualTo(1);
		});
	}

	@Test
	void heldLostAndRenewalFailureMetersFollowTheLockService() {
		this.contextRunner.run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			LockService locks = context.getBean(LockService.class);
			assertThat(meters.get("distlock.locks.held").gauge().value()).isZero();
			LockHandle handle = locks.tryLock("report:daily", Duration.ZERO, Duration.ofMinutes(1)).orElseThrow();
			assertThat(meters.get("distlock.locks.held").gauge().value()).isEqualTo(1);
			redis.command("DEL", "distlock:{report:daily}");
			try {
				handle.close();
			}
			catch (RuntimeException expected) {
				// LockLostException: asserted in LockObservationTests
			}
			assertThat(meters.get("distlock.locks.held").gauge().value()).isZero();
			assertThat(meters.get("distlock.locks.lost").functionCounter().count()).isEqualTo(1);
			assertThat(meters.get("distlock.renewal.failures").functionCounter().count()).isZero();
			assertThat(meters.get("distlock.replication.failures").functionCounter().count()).isZero();
			assertThat(timer(meters, "distlock.hold", "report", "lost").count()).isEqualTo(1);
		});
	}

	@Test
	void tenThousandDistinctKeysCreateOnlyAHandfulOfMeters() {
		this.contextRunner.run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			Stock stock = context.getBean(Stock.class);
			LockService locks = context.getBean(LockService.class);
			for (int i = 0; i < 4000; i++) {
				stock.buy("sku-" + i);
			}
			for (int i = 0; i < 3000; i++) {
				locks.tryLock("order:" + i, Duration.ZERO, null).orElseThrow().close();
			}
			for (int i = 0; i < 3000; i++) {
				locks.tryLock("customer-" + i, Duration.ZERO, null).orElseThrow().close();
			}
			List<Meter> lockMeters = meters.getMeters()
				.stream()
				.filter((meter) -> meter.getId().getName().startsWith("distlock"))
				.toList();
			Set<String> names = lockMeters.stream()
				.map((meter) -> meter.getId().getTag("name"))
				.filter((name) -> name != null)
				.collect(Collectors.toSet());
			assertThat(names).containsExactlyInAnyOrder("stock", "order", "unnamed");
			// Per name: acquire and hold timers and their long task timers; plus four
			// service-wide meters.
			assertThat(lockMeters).hasSizeLessThanOrEqualTo(names.size() * 4 + 4);
			assertThat(timer(meters, "distlock.acquire", "stock", "acquired").count()).isEqualTo(4000);
			assertThat(timer(meters, "distlock.acquire", "order", "acquired").count()).isEqualTo(3000);
			assertThat(timer(meters, "distlock.hold", "unnamed", "released").count()).isEqualTo(3000);
		});
	}

	@Test
	void observationsCanBeTurnedOffWithBootsProperty() {
		this.contextRunner.withPropertyValues("management.observations.enable.distlock=false").run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			context.getBean(Stock.class).buy("apple");
			assertThat(meters.find("distlock.acquire").meters()).isEmpty();
			assertThat(meters.find("distlock.hold").meters()).isEmpty();
			assertThat(meters.find("distlock.locks.held").gauge()).isNotNull();
		});
	}

	@Test
	void aUserConventionBeanWins() {
		LockAcquireObservationConvention custom = new DefaultLockAcquireObservationConvention() {

			@Override
			public String getName() {
				return "shop.lock.wait";
			}

		};
		this.contextRunner.withBean(LockAcquireObservationConvention.class, () -> custom).run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			context.getBean(Stock.class).buy("apple");
			assertThat(timer(meters, "shop.lock.wait", "stock", "acquired").count()).isEqualTo(1);
			assertThat(meters.find("distlock.acquire").meters()).isEmpty();
			assertThat(timer(meters, "distlock.hold", "stock", "released").count()).isEqualTo(1);
		});
	}

	private static Timer timer(MeterRegistry meters, String name, String lockName, String outcome) {
		return meters.get(name).tag("name", lockName).tag("outcome", outcome).timer();
	}

	private static List<String> tagKeys(Meter meter) {
		return meter.getId().getTags().stream().map(Tag::getKey).toList();
	}

	static class Stock {

		@DistributedLock(name = "stock", key = "#sku", waitTime = "0")
		public void buy(String sku) {
		}

		@DistributedLock(name = "stock", key = "#sku", waitTime = "0", onFailure = OnLockFailure.SKIP)
		public boolean buyIfFree(String sku) {
			return true;
		}

	}

}

package io.github.distlock.observation;

import java.time.Duration;
import java.util.Optional;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.OnLockFailure;
import io.github.distlock.redis.RedisLockClients;
import io.github.distlock.core.LockEngine;
import io.github.distlock.redis.RedisLockSettings;
import io.github.distlock.testsupport.RedisServer;
import io.github.distlock.testsupport.RedisServerExtension;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.dao.DataAccessException;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Observations of the {@link io.github.distlock.core.LockEngine} over the Redis store on
 * a real Redis: names, low- and high-cardinality key values for every outcome.
 */
class LockObservationTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	private TestObservationRegistry registry;

	private LockEngine service;

	@BeforeEach
	void setUp() {
		this.registry = TestObservationRegistry.create();
		this.service = this.clients.newService();
		this.service.setObservationRegistry(this.registry, null, null);
	}

	@Test
	void anAnnotatedAcquisitionAndHoldAreTaggedWithTheStaticName() {
		LockHandle handle = this.service.tryLock("stock", "stock:apple", Duration.ZERO, null, OnLockFailure.THROW)
			.orElseThrow();
		assertThat(this.registry).hasObservationWithNameEqualTo("distlock.acquire")
			.that()
			.hasBeenStarted()
			.hasBeenStopped()
			.hasContextualNameEqualTo("lock stock")
			.hasLowCardinalityKeyValue("name", "stock")
			.hasLowCardinalityKeyValue("outcome", "acquired")
			.hasLowCardinalityKeyValue("exception", "none")
			.hasHighCardinalityKeyValue("lock.id", "stock:apple")
			.doesNotHaveLowCardinalityKeyValueWithKey("lock.id");
		assertThat(this.registry).hasObservationWithNameEqualTo("distlock.hold")
			.that()
			.hasBeenStarted()
			.isNotStopped()
			.hasLowCardinalityKeyValue("outcome", "held");
		handle.close();
		assertThat(this.registry).hasObservationWithNameEqualTo("distlock.hold")
			.that()
			.hasBeenStopped()
			.hasLowCardinalityKeyValue("name", "stock")
			.hasLowCardinalityKeyValue("outcome", "released")
			.hasLowCardinalityKeyValue("exception", "none")
			.hasHighCardinalityKeyValue("lock.id", "stock:apple")
			.hasHighCardinalityKeyValue("lock.fencing-token", Long.toString(handle.fencingToken()));
	}

	@Test
	void programmaticCallsAreNamedByTheTextBeforeTheFirstColonNeverByTheWholeId() {
		this.service.tryLock("invoice:2024:17", Duration.ZERO, null).orElseThrow().close();
		this.service.tryLock("order-4711", Duration.ZERO, null).orElseThrow().close();
		assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo("distlock.acquire", 2)
			.hasAnObservation((observation) -> observation.hasNameEqualTo("distlock.acquire")
				.hasLowCardinalityKeyValue("name", "invoice")
				.hasHighCardinalityKeyValue("lock.id", "invoice:2024:17"))
			.hasAnObservation((observation) -> observation.hasNameEqualTo("distlock.acquire")
				.hasLowCardinalityKeyValue("name", "unnamed")
				.hasHighCardinalityKeyValue("lock.id", "order-4711"));
	}

	@Test
	void aLockHeldElsewhereIsATimeoutOrASkip() {
		LockEngine other = this.clients.newService();
		try (LockHandle held = other.lock("job", Duration.ZERO)) {
			assertThat(this.service.tryLock("job", Duration.ZERO, null)).isEmpty();
			assertThat(this.service.tryLock("job", "job", Duration.ZERO, null, OnLockFailure.SKIP)).isEmpty();
		}
		assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo("distlock.acquire", 2)
			.hasAnObservation((observation) -> observation.hasLowCardinalityKeyValue("outcome", "timeout"))
			.hasAnObservation((observation) -> observation.hasLowCardinalityKeyValue("outcome", "skipped"))
			.hasNumberOfObservationsWithNameEqualTo("distlock.hold", 0);
	}

	@Test
	void aRedisFailureIsAnErrorTaggedWithItsException() {
		RedisServer down = RedisServer.start();
		try (RedisLockClients downClients = new RedisLockClients(down)) {
			LockEngine unreachable = downClients.newService();
			unreachable.setObservationRegistry(this.registry, null, null);
			down.stop();
			assertThatExceptionOfType(LockNotAcquiredException.class)
				.isThrownBy(() -> unreachable.tryLock("stock:pear", Duration.ZERO, null))
				.withCauseInstanceOf(DataAccessException.class);
		}
		finally {
			down.close();
		}
		assertThat(this.registry).hasObservationWithNameEqualTo("distlock.acquire")
			.that()
			.hasBeenStopped()
			.hasLowCardinalityKeyValue("outcome", "error")
			.hasError()
			.doesNotHaveLowCardinalityKeyValue("exception", "none");
	}

	@Test
	void aLockLostBeforeItsReleaseEndsTheHoldAsLost() {
		LockHandle handle = this.service.tryLock("report:daily", Duration.ZERO, Duration.ofMinutes(1)).orElseThrow();
		redis.command("DEL", "distlock:{report:daily}");
		assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::close);
		assertThat(this.registry).hasObservationWithNameEqualTo("distlock.hold")
			.that()
			.hasBeenStopped()
			.hasLowCardinalityKeyValue("name", "report")
			.hasLowCardinalityKeyValue("outcome", "lost")
			.hasLowCardinalityKeyValue("exception", "LockLostException");
		assertThat(this.service.locksLost()).isOne();
	}

	@Test
	void reentrantAcquisitionsArePartOfTheOutermostHold() {
		try (LockHandle outer = this.service.lock("nested", Duration.ZERO)) {
			this.service.lock("nested", Duration.ZERO).close();
		}
		assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo("distlock.acquire", 1)
			.hasNumberOfObservationsWithNameEqualTo("distlock.hold", 1);
	}

	@Test
	void userConventionsReplaceTheDefaults() {
		LockEngine custom = this.clients.newService(RedisLockSettings.defaults());
		custom.setObservationRegistry(this.registry, new DefaultLockAcquireObservationConvention() {

			@Override
			public String getName() {
				return "shop.lock.wait";
			}

			@Override
			protected KeyValue name(LockAcquireObservationContext context) {
				return KeyValue.of("name", "shop");
			}

		}, new LockHoldObservationConvention() {

			@Override
			public String getName() {
				return "shop.lock.hold";
			}

			@Override
			public KeyValues getLowCardinalityKeyValues(LockHoldObservationContext context) {
				return KeyValues.of("lost", Boolean.toString(context.isLost()));
			}

		});
		custom.lock("stock:kiwi", Duration.ZERO).close();
		assertThat(this.registry).hasObservationWithNameEqualTo("shop.lock.wait")
			.that()
			.hasLowCardinalityKeyValue("name", "shop")
			.hasLowCardinalityKeyValue("outcome", "acquired");
		assertThat(this.registry).hasObservationWithNameEqualTo("shop.lock.hold")
			.that()
			.hasLowCardinalityKeyValue("lost", "false");
		assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo("distlock.acquire", 0);
	}

	@Test
	void withoutARegistryNothingIsObserved() {
		LockEngine plain = this.clients.newService();
		Optional<LockHandle> handle = plain.tryLock("quiet", Duration.ZERO, null);
		handle.orElseThrow().close();
		assertThat(this.registry).doesNotHaveAnyObservation();
	}

}

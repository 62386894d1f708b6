package io.github.distlock.sample.shop;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.LockInspection;
import io.github.distlock.testsupport.RedisServerExtension;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.aot.AotDetector;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.aot.AotTestContextInitializers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The shop on the context that Spring's AOT engine generated for it: the build runs this
 * class in AOT mode on the JVM ({@code process-test-aot}, then the {@code aot-tests}
 * Surefire execution with {@code spring.aot.enabled=true}). The context starts, and a
 * {@code @DistributedLock} purchase holds its lock in the test's own {@code redis-server}
 * and keeps a second buyer out.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.datasource.url=jdbc:h2:mem:aheadoftime;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000",
				"distributed-lock.wait-time=0" })
class AheadOfTimeLockTests {

	private static final String APPLE = ProductController.PRODUCT_APPLE;

	private static final Duration BOUND = Duration.ofSeconds(30);

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", redis::host);
		registry.add("spring.data.redis.port", redis::port);
	}

	@Autowired
	private BuyService buyService;

	@Autowired
	private Inventory inventory;

	@Autowired
	private LockInspection locks;

	@Autowired
	private HookedRaceWindow window;

	@Autowired
	private ConfigurableApplicationContext context;

	@AfterEach
	void unhook() {
		this.window.hook.set(null);
	}

	@Test
	void contextIsTheGeneratedOneInAotMode() {
		assumeTrue(AotDetector.useGeneratedArtifacts(), "JVM mode; the aot-tests execution runs this in AOT mode");
		assertThat(new AotTestContextInitializers().isSupportedTestClass(getClass())).isTrue();
		// Generated bean definitions create their beans through generated code, not
		// through the reflection a scanned definition uses.
		RootBeanDefinition buyService = (RootBeanDefinition) this.context.getBeanFactory()
			.getMergedBeanDefinition("buyService");
		assertThat(buyService.getInstanceSupplier()).isNotNull();
	}

	@Test
	void lockedPurchaseHoldsTheLockOfItsProductInRedis() {
		this.inventory.reset(APPLE, 5);
		AtomicReference<Optional<Duration>> leaseDuringPurchase = new AtomicReference<>(Optional.empty());
		this.window.hook.set((product) -> leaseDuringPurchase.set(this.locks.remainingLease("stock:" + product)));
		assertThat(this.buyService.buyProductWithLock(APPLE, "ann")).isEqualTo(PurchaseOutcome.BOUGHT);
		assertThat(leaseDuringPurchase.get()).as("lease of stock:apple in Redis during the purchase").isPresent();
		assertThat(this.locks.remainingLease("stock:apple")).as("lease of stock:apple after the purchase").isEmpty();
		assertThat(this.inventory.level(APPLE)).isEqualTo(new Inventory.StockLevel(4, 1));
	}

	@Test
	void secondBuyerIsRefusedWhileTheFirstHoldsTheLock() throws Exception {
		this.inventory.reset(APPLE, 5);
		CountDownLatch inside = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		this.window.hook.set((product) -> {
			inside.countDown();
			await(release, "the test to let the first buyer go");
		});
		CompletableFuture<PurchaseOutcome> first = CompletableFuture
			.supplyAsync(() -> this.buyService.buyProductWithLock(APPLE, "ann"));
		try {
			assertThat(inside.await(BOUND.toSeconds(), TimeUnit.SECONDS)).as("first buyer inside its lock").isTrue();
			assertThatExceptionOfType(LockNotAcquiredException.class)
				.isThrownBy(() -> this.buyService.buyProductWithLock(APPLE, "bob"))
				.satisfies((ex) -> assertThat(ex.getLockId()).isEqualTo("stock:apple"));
		}
		finally {
			release.countDown();
		}
		assertThat(first.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo(PurchaseOutcome.BOUGHT);
		assertThat(this.inventory.level(APPLE)).isEqualTo(new Inventory.StockLevel(4, 1));
	}

	private static void await(CountDownLatch latch, String what) {
		try {
			if (!latch.await(BOUND.toSeconds(), TimeUnit.SECONDS)) {
				throw new IllegalStateException("Waited " + BOUND.toSeconds() + "s for " + what);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class HookedWindowConfiguration {

		@Bean
		@Primary
		HookedRaceWindow hookedRaceWindow() {
			return new HookedRaceWindow();
		}

	}

	/** Runs the test's hook between the buyer's read and its write. */
	static class HookedRaceWindow implements RaceWindow {

		final AtomicReference<@Nullable Consumer<String>> hook = new AtomicReference<>();

		@Override
		public void between(String productName) {
			Consumer<String> current = this.hook.get();
			if (current != null) {
				current.accept(productName);
			}
		}

	}

}

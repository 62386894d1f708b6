package io.github.distlock.sample.shop;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.distlock.LockLostException;
import io.github.distlock.LockService;
import io.github.distlock.sample.TestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A buyer paused between reading the stock and writing it, past its fixed lease, while another buyer takes the
 * lock and the last apple: the fenced write of the stale holder is refused, so nothing is oversold.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.datasource.url=jdbc:h2:mem:fenced;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000",
				"sample.fenced-lease-time=1s" })
class FencedPurchaseTests {

	private static final String APPLE = ProductController.PRODUCT_APPLE;

	private static final Duration BOUND = Duration.ofSeconds(30);

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		TestRedis.register(registry);
	}

	@Autowired
	private BuyService buyService;

	@Autowired
	private Inventory inventory;

	@Autowired
	private LockService lockService;

	@Autowired
	private PausingRaceWindow window;

	@Test
	void holderPausedPastItsLeaseCannotOversellTheLastApple() throws Exception {
		this.inventory.reset(APPLE, 1);
		this.window.pauseNextBuyer();

		CompletableFuture<PurchaseOutcome> stale = CompletableFuture
			.supplyAsync(() -> this.buyService.buyProductFenced(APPLE, "stale"));
		assertThat(this.window.paused.await(BOUND.toSeconds(), TimeUnit.SECONDS)).as("stale buyer read the stock")
			.isTrue();
		// The stale buyer has read 1 apple left and holds a 1s lease that nobody renews; wait until Redis expired it.
		await().atMost(BOUND).until(() -> !this.lockService.isLocked("stock:" + APPLE));

		assertThat(this.buyService.buyProductFenced(APPLE, "fresh")).isEqualTo(PurchaseOutcome.BOUGHT);
		this.window.release.countDown();

		// Its write is refused, its transaction commits nothing, and releasing the lost lock reports the loss.
		assertThatThrownBy(() -> stale.get(BOUND.toSeconds(), TimeUnit.SECONDS))
			.isInstanceOf(ExecutionException.class)
			.hasCauseInstanceOf(LockLostException.class);
		assertThat(this.window.resumed).as("the stale buyer went on to write").isTrue();
		assertThat(this.inventory.level(APPLE)).isEqualTo(new Inventory.StockLevel(0, 1));
	}

	@Test
	void fencedBuyersSellUntilSoldOut() {
		this.inventory.reset(APPLE, 2);
		assertThat(this.buyService.buyProductFenced(APPLE, "a")).isEqualTo(PurchaseOutcome.BOUGHT);
		assertThat(this.buyService.buyProductFenced(APPLE, "b")).isEqualTo(PurchaseOutcome.BOUGHT);
		assertThat(this.buyService.buyProductFenced(APPLE, "c")).isEqualTo(PurchaseOutcome.SOLD_OUT);
		assertThat(this.inventory.level(APPLE)).isEqualTo(new Inventory.StockLevel(0, 2));
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class PausingWindowConfiguration {

		@Bean
		@Primary
		PausingRaceWindow pausingRaceWindow() {
			return new PausingRaceWindow();
		}

	}

	/** Stops the next buyer between its read and its write until the test lets it go; others pass. */
	static class PausingRaceWindow implements RaceWindow {

		final CountDownLatch paused = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		private final AtomicBoolean pauseNext = new AtomicBoolean();

		volatile boolean resumed;

		void pauseNextBuyer() {
			this.pauseNext.set(true);
		}

		@Override
		public void between(String productName) {
			if (!this.pauseNext.compareAndSet(true, false)) {
				return;
			}
			this.paused.countDown();
			try {
				if (!this.release.await(BOUND.toSeconds(), TimeUnit.SECONDS)) {
					throw new IllegalStateException("The test never released the paused buyer");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
			this.resumed = true;
		}

	}

}

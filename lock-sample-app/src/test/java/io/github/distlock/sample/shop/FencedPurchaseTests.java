package io.github.distlock.sample.shop;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import io.github.distlock.LockLostException;
import io.github.distlock.LockService;
import io.github.distlock.test.LocalRedisServer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A buyer paused between reading the stock and writing it, past its fixed lease, while
 * another buyer takes the lock and the last apple: the fenced write of the stale holder
 * is refused, so nothing is oversold. The same pause on the locked path without a fence
 * oversells: the lock alone does not protect the stock.
 * <p>
 * On a real {@code redis-server}, with real time: the stale buyer and the fresh one are
 * threads of one instance, and a thread of the instance holding a lock waits for it
 * locally until the holder's own deadline passes, which the kit's test clock does not
 * move.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.datasource.url=jdbc:h2:mem:fenced;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000",
				"sample.fenced-lease-time=1s", "sample.locked-lease-time=1s" })
@LocalRedisServer
class FencedPurchaseTests {

	private static final String APPLE = ProductController.PRODUCT_APPLE;

	private static final Duration BOUND = Duration.ofSeconds(30);

	@Autowired
	private BuyService buyService;

	@Autowired
	private Inventory inventory;

	@Autowired
	private LockService lockService;

	@Autowired
	private PausingRaceWindow window;

	/** The stale buyer's pause in the running test. */
	private Pause pause;

	@Test
	void holderPausedPastItsLeaseCannotOversellTheLastApple() throws Exception {
		CompletableFuture<PurchaseOutcome> stale = pauseStaleBuyerWhileAFreshOneBuys(
				() -> this.buyService.buyProductFenced(APPLE, "stale"),
				() -> this.buyService.buyProductFenced(APPLE, "fresh"));

		// Its write is refused, its transaction commits nothing, and releasing the lost
		// lock reports the loss.
		assertThatThrownBy(() -> stale.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
			.hasCauseInstanceOf(LockLostException.class);
		assertThat(this.pause.resumed).as("the stale buyer went on to write").isTrue();
		assertThat(this.inventory.level(APPLE)).isEqualTo(new Inventory.StockLevel(0, 1));
	}

	@Test
	void withoutTheFenceTheSamePausedHolderOversells() throws Exception {
		CompletableFuture<PurchaseOutcome> stale = pauseStaleBuyerWhileAFreshOneBuys(
				() -> this.buyService.buyProductWithLock(APPLE, "stale"),
				() -> this.buyService.buyProductWithLock(APPLE, "fresh"));

		// The stale write goes through: two purchases of the one apple. Only the release
		// notices the loss.
		assertThatThrownBy(() -> stale.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
			.hasCauseInstanceOf(LockLostException.class);
		assertThat(this.inventory.level(APPLE)).isEqualTo(new Inventory.StockLevel(0, 2));
	}

	/**
	 * One apple in stock; the stale buyer reads it and is paused; its fixed 1s lease,
	 * never renewed, expires in Redis; the fresh buyer takes the lock and the apple; then
	 * the stale buyer resumes.
	 */
	private CompletableFuture<PurchaseOutcome> pauseStaleBuyerWhileAFreshOneBuys(Supplier<PurchaseOutcome> staleBuyer,
			Supplier<PurchaseOutcome> freshBuyer) throws InterruptedException {
		this.inventory.reset(APPLE, 1);
		this.pause = this.window.pauseNextBuyer();
		CompletableFuture<PurchaseOutcome> stale = CompletableFuture.supplyAsync(staleBuyer);
		assertThat(this.pause.paused.await(BOUND.toSeconds(), TimeUnit.SECONDS)).as("stale buyer read the stock")
			.isTrue();
		await().atMost(BOUND).until(() -> !this.lockService.isLocked("stock:" + APPLE));

		assertThat(freshBuyer.get()).isEqualTo(PurchaseOutcome.BOUGHT);
		this.pause.release.countDown();
		return stale;
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

	/**
	 * Stops the next buyer between its read and its write until the test lets it go;
	 * others pass.
	 */
	static class PausingRaceWindow implements RaceWindow {

		private final AtomicReference<@Nullable Pause> next = new AtomicReference<>();

		Pause pauseNextBuyer() {
			Pause pause = new Pause();
			this.next.set(pause);
			return pause;
		}

		@Override
		public void between(String productName) {
			Pause pause = this.next.getAndSet(null);
			if (pause != null) {
				pause.hold();
			}
		}

	}

	/** One paused buyer. */
	static class Pause {

		final CountDownLatch paused = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		volatile boolean resumed;

		void hold() {
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

package io.github.distlock.sample.shop;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.github.distlock.LockContext;
import io.github.distlock.LockLostException;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.test.AutoConfigureInMemoryLocks;
import io.github.distlock.test.HeldElsewhere;
import io.github.distlock.test.TestLocks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The locking of {@link BuyService}, tested as a team adopting distlock tests its own
 * service, with the testing kit's in-memory locks: which lock a purchase holds, and what
 * it does when the lock is taken elsewhere or lost under it. No Redis.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.datasource.url=jdbc:h2:mem:buylocks;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000",
				"distributed-lock.wait-time=0" })
@AutoConfigureInMemoryLocks
class BuyServiceLockTests {

	private static final String APPLE = ProductController.PRODUCT_APPLE;

	@Autowired
	private BuyService buyService;

	@Autowired
	private Inventory inventory;

	@Autowired
	private TestLocks locks;

	@Autowired
	private HookedRaceWindow window;

	@AfterEach
	void unhook() {
		this.window.hook.set(null);
	}

	@Test
	void lockedPurchaseRunsUnderTheLockOfItsProduct() {
		this.inventory.reset(APPLE, 5);
		this.window.hook.set((product) -> TestLocks.assertLocked("stock:" + product));
		assertThat(this.buyService.buyProductWithLock(APPLE, "ann")).isEqualTo(PurchaseOutcome.BOUGHT);
		assertThat(this.buyService.buyProductFenced(APPLE, "bob")).isEqualTo(PurchaseOutcome.BOUGHT);
		assertThat(this.locks.acquired()).containsExactly("stock:apple", "stock:apple");
		assertThat(this.locks.released()).containsExactly("stock:apple", "stock:apple");
	}

	@Test
	void unlockedPurchaseTakesNoLock() {
		this.inventory.reset(APPLE, 5);
		this.window.hook.set((product) -> assertThat(LockContext.current()).isEmpty());
		assertThat(this.buyService.buyProduct(APPLE, "ann")).isEqualTo(PurchaseOutcome.BOUGHT);
		assertThat(this.locks.records()).isEmpty();
	}

	@Test
	void productLockedByAnotherInstanceFailsThePurchaseAndLeavesTheStock() {
		this.inventory.reset(APPLE, 5);
		try (HeldElsewhere held = this.locks.holdElsewhere("stock:apple")) {
			assertThatExceptionOfType(LockNotAcquiredException.class)
				.isThrownBy(() -> this.buyService.buyProductWithLock(APPLE, "ann"))
				.withMessage("Lock 'stock:apple' of " + BuyService.class.getName()
						+ ".buyProductWithLock(String, String) was not acquired within 0s")
				.satisfies((ex) -> assertThat(ex.getLockId()).isEqualTo("stock:apple"));
		}
		assertThat(this.inventory.level(APPLE)).isEqualTo(new Inventory.StockLevel(5, 0));
		assertThat(this.buyService.buyProductWithLock(APPLE, "ann")).isEqualTo(PurchaseOutcome.BOUGHT);
	}

	@Test
	void lockLostDuringThePurchaseIsReportedAfterTheWriteCommitted() {
		this.inventory.reset(APPLE, 5);
		this.window.hook.set((product) -> this.locks.loseLock("stock:" + product));
		assertThatExceptionOfType(LockLostException.class)
			.isThrownBy(() -> this.buyService.buyProductWithLock(APPLE, "ann"))
			.satisfies((ex) -> assertThat(ex.getLockId()).isEqualTo("stock:apple"));
		// The transaction inside the lock committed before the release found the loss:
		// the caller learns of it, the write stands. Fencing (buyProductFenced) is what
		// refuses a stale holder's write.
		assertThat(this.inventory.level(APPLE)).isEqualTo(new Inventory.StockLevel(4, 1));
		assertThat(this.locks.lost()).containsExactly("stock:apple");
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

		final AtomicReference<Consumer<String>> hook = new AtomicReference<>();

		@Override
		public void between(String productName) {
			Consumer<String> current = this.hook.get();
			if (current != null) {
				current.accept(productName);
			}
		}

	}

}

package io.github.distlock.docs.shop;

import io.github.distlock.LockNotAcquiredException;
// tag::imports[]
import io.github.distlock.test.AutoConfigureInMemoryLocks;
import io.github.distlock.test.TestLocks;
// end::imports[]
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

// tag::in-memory[]
@SpringBootTest(properties = "distributed-lock.wait-time=0") // fail at once, not in 10s
@AutoConfigureInMemoryLocks
class StockServiceLockTests {

	@Autowired
	private StockService stockService;

	@Autowired
	private Inventory inventory;

	@Autowired
	private TestLocks locks;

	@Test
	void buyLocksTheProduct() {
		this.inventory.stock("apple", 5);
		this.stockService.buy("apple");
		assertThat(this.locks.acquired()).containsExactly("stock:apple");
		assertThat(this.locks.released()).containsExactly("stock:apple");
	}

	@Test
	void productLockedElsewhereIsNotBought() {
		this.inventory.stock("apple", 5);
		this.locks.holdElsewhere("stock:apple"); // another instance holds it
		assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> this.stockService.buy("apple"));
		assertThat(this.inventory.amount("apple")).isEqualTo(5);
	}

}
// end::in-memory[]

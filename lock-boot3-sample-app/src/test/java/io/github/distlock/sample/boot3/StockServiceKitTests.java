package io.github.distlock.sample.boot3;

import java.time.Duration;

import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.test.AutoConfigureInMemoryLocks;
import io.github.distlock.test.HeldElsewhere;
import io.github.distlock.test.TestLocks;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Boot 3.5 test kit ({@code lock-spring-boot3-test}) beside the Boot 3.5 starter, as
 * a user adds it: the application's locks run in memory, and {@link TestLocks} tells
 * which were taken and plays another instance holding one.
 */
@SpringBootTest
@AutoConfigureInMemoryLocks
class StockServiceKitTests {

	@Autowired
	private StockService stock;

	@Autowired
	private LockService lockService;

	@Autowired
	private TestLocks locks;

	@Test
	void buyTakesAndReleasesTheLockOfItsSku() {
		this.stock.restock("apple", 2);
		assertThat(this.stock.buy("apple")).isTrue();
		assertThat(this.locks.acquired()).containsExactly("stock:apple");
		assertThat(this.locks.released()).containsExactly("stock:apple");
		assertThat(this.stock.left("apple")).isEqualTo(1);
	}

	@Test
	void aLockHeldElsewhereIsSeenAndItsReleaseLetsTheApplicationIn() {
		try (HeldElsewhere held = this.locks.holdElsewhere("stock:pear")) {
			assertThat(this.lockService.isLocked("stock:pear")).isTrue();
			assertThat(this.lockService.tryLock("stock:pear", Duration.ZERO, null)).isEmpty();
		}
		try (LockHandle handle = this.lockService.tryLock("stock:pear", Duration.ZERO, null).orElseThrow()) {
			assertThat(handle.isHeld()).isTrue();
		}
		assertThat(this.locks.acquired()).containsExactly("stock:pear");
	}

}

package io.github.distlock.docs.shop;

import java.time.Duration;
import java.util.List;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.LockService;
import io.github.distlock.test.AutoConfigureInMemoryLocks;
import io.github.distlock.test.HeldElsewhere;
import io.github.distlock.test.TestLocks;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The {@code LockService} examples of the docs do what the docs say, and the lock-lost
 * listener hears a lost lock.
 */
@SpringBootTest
@AutoConfigureInMemoryLocks
class LockServiceExamplesTests {

	@Autowired
	private Restocking restocking;

	@Autowired
	private Inventory inventory;

	@Autowired
	private LockService lockService;

	@Autowired
	private LockLossAlarm alarm;

	@Autowired
	private TestLocks locks;

	@Test
	void everyExampleLocksTheProduct() {
		this.inventory.stock("apple", 1);
		this.restocking.restock("apple", 2);
		assertThat(this.restocking.restockIfFree("apple", 3)).isTrue();
		this.restocking.restockInTurn("apple", 4);
		assertThat(this.restocking.count("apple")).isEqualTo(10);
		this.restocking.clear("apple");
		assertThat(this.inventory.amount("apple")).isZero();
		assertThat(this.locks.acquired()).hasSize(5).containsOnly("stock:apple");
		assertThat(this.restocking.busy("apple")).isFalse();
	}

	@Test
	void tryLockGivesUpAtOnceWhenHeldElsewhere() {
		this.inventory.stock("apple", 1);
		try (HeldElsewhere held = this.locks.holdElsewhere("stock:apple")) {
			assertThat(this.restocking.busy("apple")).isTrue();
			assertThat(this.restocking.restockIfFree("apple", 3)).isFalse();
		}
		assertThat(this.inventory.amount("apple")).isEqualTo(1);
	}

	@Test
	void importExtendsItsLeaseForEverySku() {
		this.restocking.importAll(List.of("fig", "kiwi"));
		assertThat(this.inventory.amount("fig")).isEqualTo(100);
		assertThat(this.inventory.amount("kiwi")).isEqualTo(100);
	}

	@Test
	void aLostLockIsHeardAndItsReleaseThrows() {
		LockHandle handle = this.lockService.lock("stock:plum", Duration.ofSeconds(1));
		this.locks.loseLock("stock:plum");
		await().atMost(Duration.ofSeconds(10)).until(() -> this.alarm.lost().contains("stock:plum"));
		assertThat(handle.isHeld()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::close);
	}

	@Test
	void readAndPermitExamplesTakeSharedHolds() {
		this.inventory.stock("kiwi", 3);
		assertThat(this.restocking.amountWhileNoRestockRuns("kiwi")).isEqualTo(3);
		try (HeldElsewhere held = this.locks.holdElsewhere("stock:kiwi")) {
			assertThat(this.lockService.read().tryLock("stock:kiwi", Duration.ZERO, null)).isEmpty();
		}
		assertThat(this.restocking.exportIfAPermitIsFree("daily")).isTrue();
		assertThat(this.locks.acquired()).containsExactly("stock:kiwi", "exports");
	}

}

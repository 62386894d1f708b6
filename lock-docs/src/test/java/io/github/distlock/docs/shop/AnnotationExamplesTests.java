package io.github.distlock.docs.shop;

import java.time.Duration;
import java.util.List;

import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.test.AutoConfigureInMemoryLocks;
import io.github.distlock.test.HeldElsewhere;
import io.github.distlock.test.TestLocks;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The annotation examples of the docs do what the docs say: the lock ids their keys make,
 * {@code SKIP}'s empty answer, the minimum hold of a job, a fair lock.
 */
@SpringBootTest(properties = "distributed-lock.wait-time=0")
@AutoConfigureInMemoryLocks
class AnnotationExamplesTests {

	@Autowired
	private Billing billing;

	@Autowired
	private StockService stockService;

	@Autowired
	private Inventory inventory;

	@Autowired
	private TestLocks locks;

	@Test
	void keysMakeTheLockIds() {
		this.billing.ship(new Order("7", "ann"));
		this.billing.transfer("a", "b", 500);
		this.billing.printLabel("p-1");
		this.billing.reserveSeat("gala", "ann");
		assertThat(this.locks.acquired()).containsExactly("order:7", "transfer:a->b", "label:p-1", "seat:gala");
	}

	@Test
	void aCollectionKeyLocksEachElementInOneOrder() {
		assertThat(this.billing.move("b-2", "a-1", 500)).containsOnlyKeys("account:a-1", "account:b-2");
		this.billing.pick(List.of("pear", "apple", "pear"));
		assertThat(this.locks.acquired()).containsExactly("account:a-1", "account:b-2", "sku:apple", "sku:pear");
	}

	@Test
	void readAndPermitsTakeSharedHoldsOfTheirIds() {
		assertThat(this.billing.describe("s-1")).isEqualTo("sku s-1");
		this.billing.reprice("s-1", 990);
		this.billing.bookPickup("p-1");
		assertThat(this.locks.acquired()).containsExactly("catalog:s-1", "catalog:s-1", "carrier-api");
		try (HeldElsewhere held = this.locks.holdElsewhere("catalog:s-1")) {
			assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> this.billing.describe("s-1"));
		}
	}

	@Test
	void skipAnswersEmptyWhenTheLockIsHeldElsewhere() {
		assertThat(this.billing.invoice(new Order("7", "ann"))).contains("invoice for 7");
		try (HeldElsewhere held = this.locks.holdElsewhere("invoice:7")) {
			assertThat(this.billing.invoice(new Order("7", "ann"))).isEmpty();
		}
	}

	@Test
	void theHourlyReportRunsOncePerMinimumHold() {
		int before = this.billing.reportsRun();
		this.billing.hourlyReport();
		// another instance's trigger within the minute: skipped
		this.billing.hourlyReport();
		assertThat(this.billing.reportsRun()).isEqualTo(before + 1);
		this.locks.advanceClock(Duration.ofMinutes(1));
		this.billing.hourlyReport();
		assertThat(this.billing.reportsRun()).isEqualTo(before + 2);
	}

	@Test
	void aFencedBuyWritesWithItsToken() {
		this.inventory.stock("pear", 1);
		assertThat(this.stockService.buyFenced("pear")).isTrue();
		assertThat(this.inventory.amount("pear")).isZero();
	}

}

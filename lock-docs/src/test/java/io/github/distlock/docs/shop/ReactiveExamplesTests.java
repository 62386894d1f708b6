package io.github.distlock.docs.shop;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockService;
import io.github.distlock.ReactiveLockHandle;
import io.github.distlock.ReactiveLockService;
import io.github.distlock.test.AutoConfigureInMemoryLocks;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reactive examples of the docs do what the docs say: 30 concurrent buyers of 10
 * items through the locked {@code Mono} sell exactly 10, the nested {@code Flux}
 * re-enters its lock, the future is skipped while the lock is held, and the programmatic
 * calls lock the same ids as the annotation.
 */
@SpringBootTest
@AutoConfigureInMemoryLocks
class ReactiveExamplesTests {

	private static final Duration BOUND = Duration.ofSeconds(30);

	@Autowired
	private ReactiveStock stock;

	@Autowired
	private Inventory inventory;

	@Autowired
	private LockService lockService;

	@Autowired
	private ReactiveLockService reactiveLockService;

	@Test
	void concurrentBuyersNeverOversell() {
		this.inventory.stock("melon", 10);
		List<Object> outcomes = Flux.range(0, 30)
			.flatMap((i) -> this.stock.buy("melon")
				.cast(Object.class)
				.onErrorResume(SoldOutException.class, (ex) -> Mono.just("sold out")), 30)
			.collectList()
			.block(BOUND);
		assertThat(outcomes).hasSize(30);
		assertThat(outcomes.stream().filter("sold out"::equals)).hasSize(20);
		assertThat(this.inventory.amount("melon")).isZero();
	}

	@Test
	void theFluxReentersItsLockAndTheFencedWriteIsAccepted() {
		this.inventory.stock("grape", 5);
		assertThat(this.stock.countDown("grape", 3).collectList().block(BOUND)).containsExactly(4, 3, 2);
		assertThat(this.stock.buyFenced("grape").block(BOUND)).isTrue();
		assertThat(this.inventory.amount("grape")).isOne();
	}

	@Test
	void theFutureIsSkippedWhileTheLockIsHeld() throws Exception {
		this.inventory.stock("lemon", 7);
		ReactiveLockHandle held = this.reactiveLockService.tryLock("report", Duration.ZERO, null).block(BOUND);
		assertThat(this.stock.reportLater("lemon").get(30, TimeUnit.SECONDS)).isNull();
		held.release().block(BOUND);
		assertThat(this.stock.reportLater("lemon").get(30, TimeUnit.SECONDS)).isEqualTo(7);
	}

	@Test
	void theProgrammaticCallsLockTheAnnotationsIds() {
		this.inventory.stock("cherry", 1);
		assertThat(this.stock.restock("cherry", 2).block(BOUND)).isEqualTo(3);
		try (var held = this.lockService.lock("stock:cherry", Duration.ofSeconds(5))) {
			assertThat(this.stock.restockIfFree("cherry", 5).block(BOUND)).isFalse();
		}
		assertThat(this.stock.restockIfFree("cherry", 5).block(BOUND)).isTrue();
		assertThat(this.inventory.amount("cherry")).isEqualTo(8);
	}

}

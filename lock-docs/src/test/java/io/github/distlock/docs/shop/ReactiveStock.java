package io.github.distlock.docs.shop;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.OnLockFailure;
import io.github.distlock.ReactiveLockContext;
import io.github.distlock.ReactiveLockHandle;
import io.github.distlock.ReactiveLockService;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.stereotype.Service;

/**
 * The reactive and async examples: {@code @DistributedLock} on {@code Mono}, {@code Flux}
 * and {@code CompletableFuture} methods, and {@link ReactiveLockService}. The inventory
 * is JDBC (blocking), so its calls run on Reactor's bounded elastic scheduler.
 */
@Service
public class ReactiveStock {

	private final ReactiveLockService locks;

	private final Inventory inventory;

	public ReactiveStock(ReactiveLockService locks, Inventory inventory) {
		this.locks = locks;
		this.inventory = inventory;
	}

	// tag::mono[]
	// locked on subscription, released when the Mono completes, fails or is cancelled
	@DistributedLock(name = "stock", key = "#sku")
	public Mono<Integer> buy(String sku) {
		return Mono.fromCallable(() -> {
			int left = this.inventory.amount(sku);
			if (left == 0) {
				throw new SoldOutException(sku);
			}
			this.inventory.save(sku, left - 1);
			return left - 1;
		}).subscribeOn(Schedulers.boundedElastic()); // JDBC blocks: not on an event loop
	}
	// end::mono[]

	// tag::flux[]
	// the lock is held from subscription until the last element
	@DistributedLock(name = "stock", key = "#sku")
	public Flux<Integer> countDown(String sku, int times) {
		// each buy(sku) is nested: it re-enters the lock this call holds
		return Flux.range(1, times).concatMap((i) -> buy(sku));
	}
	// end::flux[]

	// tag::future[]
	// locked at the call; the method runs once the lock is held
	@DistributedLock(name = "report", waitTime = "0s", onFailure = OnLockFailure.SKIP)
	public CompletableFuture<Integer> reportLater(String sku) {
		return CompletableFuture.supplyAsync(() -> this.inventory.amount(sku));
	}
	// end::future[]

	// tag::fencing[]
	@DistributedLock(name = "stock", key = "#sku")
	public Mono<Boolean> buyFenced(String sku) {
		return ReactiveLockContext.current()
			.map(ReactiveLockHandle::fencingToken)
			.publishOn(Schedulers.boundedElastic())
			.map((token) -> this.inventory.saveFenced(sku, this.inventory.amount(sku) - 1, token));
	}
	// end::fencing[]

	// tag::execute-locked[]
	public Mono<Integer> restock(String sku, int amount) {
		Mono<Integer> restock = Mono.fromCallable(() -> {
			this.inventory.save(sku, this.inventory.amount(sku) + amount);
			return this.inventory.amount(sku);
		}).subscribeOn(Schedulers.boundedElastic());
		return this.locks.executeLocked("stock:" + sku, Duration.ofSeconds(5), restock);
	}
	// end::execute-locked[]

	// tag::try-lock[]
	public Mono<Boolean> restockIfFree(String sku, int amount) {
		Mono<Boolean> restock = restockUnlocked(sku, amount).thenReturn(true);
		return this.locks.executeLocked("stock:" + sku, Duration.ZERO, restock)
			// held elsewhere: false
			.onErrorResume(LockNotAcquiredException.class, (ex) -> Mono.just(false));
	}
	// end::try-lock[]

	// tag::restock-unlocked[]
	private Mono<Void> restockUnlocked(String sku, int amount) {
		return Mono.fromRunnable(() -> this.inventory.save(sku, this.inventory.amount(sku) + amount))
			.subscribeOn(Schedulers.boundedElastic())
			.then();
	}
	// end::restock-unlocked[]

}

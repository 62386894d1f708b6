package io.github.distlock.webflux.sample;

import java.util.List;

import io.github.distlock.DistributedLock;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.ReactiveValueOperations;
import org.springframework.stereotype.Service;

/**
 * The shop's stock in Redis: a product's stock is read, then written back one lower, a
 * read-modify-write that two buyers on two instances interleave without a lock (both read
 * the same stock, both sell, one decrement is lost).
 */
@Service
public class ReactiveShop {

	private final ReactiveStringRedisTemplate redis;

	public ReactiveShop(ReactiveStringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * Sells one item if any is left: one buyer of a product at a time, on every instance.
	 * The lock is taken on subscription and released when the purchase completed.
	 * @param sku the product
	 * @return whether one was sold
	 */
	@DistributedLock(name = "stock", key = "#sku")
	public Mono<Boolean> buy(String sku) {
		return sellOne(sku);
	}

	/**
	 * The same purchase without a lock: the race.
	 * @param sku the product
	 * @return whether the buyer was told one was sold
	 */
	public Mono<Boolean> buyUnlocked(String sku) {
		return sellOne(sku);
	}

	private Mono<Boolean> sellOne(String sku) {
		ReactiveValueOperations<String, String> values = this.redis.opsForValue();
		return values.get(stockKey(sku)).map(Integer::parseInt).defaultIfEmpty(0).flatMap((left) -> {
			if (left == 0) {
				return Mono.just(false);
			}
			return values.set(stockKey(sku), Integer.toString(left - 1))
				.then(values.increment(purchasesKey(sku)))
				.thenReturn(true);
		});
	}

	/**
	 * Puts {@code amount} items in stock and forgets the purchases.
	 * @param sku the product
	 * @param amount the stock
	 * @return completes when written
	 */
	public Mono<Void> stock(String sku, int amount) {
		return this.redis.opsForValue()
			.set(stockKey(sku), Integer.toString(amount))
			.then(this.redis.delete(purchasesKey(sku)))
			.then();
	}

	/**
	 * What is left and how many purchases were recorded.
	 * @param sku the product
	 * @return the state
	 */
	public Mono<StockState> state(String sku) {
		return this.redis.opsForValue()
			.multiGet(List.of(stockKey(sku), purchasesKey(sku)))
			.map((found) -> new StockState(sku, number(found.get(0)), number(found.get(1))));
	}

	private static int number(String value) {
		return (value != null) ? Integer.parseInt(value) : 0;
	}

	private static String stockKey(String sku) {
		return "shop:stock:" + sku;
	}

	private static String purchasesKey(String sku) {
		return "shop:purchases:" + sku;
	}

	/**
	 * A product's stock and the purchases recorded: both add up to what was stocked
	 * unless a decrement was lost.
	 *
	 * @param sku the product
	 * @param left the items left
	 * @param purchases the purchases recorded
	 */
	public record StockState(String sku, int left, int purchases) {

	}

}

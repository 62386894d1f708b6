package io.github.distlock.sample.boot3;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.distlock.DistributedLock;

import org.springframework.stereotype.Service;

/**
 * Sells from a stock per SKU. {@link #buy} reads, then writes the count: without the
 * lock, concurrent buyers would both see the last item and sell it twice.
 */
@Service
public class StockService {

	private final Map<String, Integer> stock = new ConcurrentHashMap<>();

	/**
	 * Sets the stock of a SKU.
	 * @param sku the SKU
	 * @param count how many items there are
	 */
	public void restock(String sku, int count) {
		this.stock.put(sku, count);
	}

	/**
	 * How many items of a SKU are left.
	 * @param sku the SKU
	 * @return the items left
	 */
	public int left(String sku) {
		return this.stock.getOrDefault(sku, 0);
	}

	/**
	 * Sells one item, under the lock {@code stock:<sku>}.
	 * @param sku the SKU
	 * @return whether an item was left to sell
	 */
	@DistributedLock(name = "stock", key = "#sku", waitTime = "10s")
	public boolean buy(String sku) {
		int left = left(sku);
		if (left == 0) {
			return false;
		}
		Thread.yield(); // widens the read-modify-write window the lock must close
		this.stock.put(sku, left - 1);
		return true;
	}

}

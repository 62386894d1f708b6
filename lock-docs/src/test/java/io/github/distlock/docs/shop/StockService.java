package io.github.distlock.docs.shop;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockContext;
import io.github.distlock.LockHandle;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Buying, the read-check-write that oversells without a lock.
 */
@Service
public class StockService {

	private final Inventory inventory;

	public StockService(Inventory inventory) {
		this.inventory = inventory;
	}

	// tag::buy[]
	// one buyer of a product at a time, on every instance: the lock id is "stock:<sku>"
	@DistributedLock(name = "stock", key = "#sku")
	@Transactional // begins after the lock is acquired, ends before it is released
	public void buy(String sku) {
		int left = this.inventory.amount(sku);
		if (left == 0) {
			throw new SoldOutException(sku);
		}
		this.inventory.save(sku, left - 1);
	}
	// end::buy[]

	// tag::buy-fenced[]
	@DistributedLock(name = "stock", key = "#sku")
	@Transactional
	public boolean buyFenced(String sku) {
		long token = LockContext.current().map(LockHandle::fencingToken).orElseThrow();
		int left = this.inventory.amount(sku);
		if (left == 0) {
			throw new SoldOutException(sku);
		}
		// false: a newer holder wrote meanwhile (this one's lease had run out)
		return this.inventory.saveFenced(sku, left - 1, token);
	}
	// end::buy-fenced[]

}

package io.github.distlock.sample.shop;

import java.time.LocalDateTime;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockContext;
import io.github.distlock.LockHandle;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The seed article's {@code BuyService}: read the stock, check it, decrement it, save it,
 * log the purchase. Three ways to run that body, from unsafe to safe against a stale lock
 * holder.
 */
@Service
public class BuyService {

	private final ProductRepository products;

	private final PurchaseHistoryRepository history;

	private final RaceWindow raceWindow;

	public BuyService(ProductRepository products, PurchaseHistoryRepository history, RaceWindow raceWindow) {
		this.products = products;
		this.history = history;
		this.raceWindow = raceWindow;
	}

	/**
	 * Without a lock, as in the article: concurrent buyers read the same stock, all see
	 * some left, and write back overlapping decrements, so more purchases are recorded
	 * than stock was taken.
	 */
	public PurchaseOutcome buyProduct(String productName, String purchaser) {
		Product product = find(productName);
		if (product.getAmount() <= 0) {
			return PurchaseOutcome.SOLD_OUT;
		}
		this.raceWindow.between(productName);
		product.setAmount(product.getAmount() - 1);
		this.products.save(product);
		record(productName, purchaser);
		return PurchaseOutcome.BOUGHT;
	}

	/**
	 * The same body under the distributed lock, in a transaction that commits before the
	 * lock is released, so the next buyer on any instance reads the committed stock.
	 * {@code sample.locked-lease-time} fixes the lease (auto-renewed when empty), so
	 * tests can show what a holder paused past it does.
	 */
	@DistributedLock(name = "stock", key = "#productName", leaseTime = "${sample.locked-lease-time:}")
	@Transactional
	public PurchaseOutcome buyProductWithLock(String productName, String purchaser) {
		return buyProduct(productName, purchaser);
	}

	/**
	 * The same body under the lock, but the write only applies if no holder with a newer
	 * fencing token wrote since: a buyer whose lease ran out while it was paused cannot
	 * write back the stock it read before. {@code sample.fenced-lease-time} fixes the
	 * lease (auto-renewed when empty), so tests can let it expire.
	 */
	@DistributedLock(name = "stock", key = "#productName", leaseTime = "${sample.fenced-lease-time:}")
	@Transactional
	public PurchaseOutcome buyProductFenced(String productName, String purchaser) {
		long token = LockContext.current()
			.map(LockHandle::fencingToken)
			.orElseThrow(() -> new IllegalStateException("buyProductFenced must run under its @DistributedLock"));
		Product product = find(productName);
		if (product.getAmount() <= 0) {
			return PurchaseOutcome.SOLD_OUT;
		}
		this.raceWindow.between(productName);
		if (this.products.writeAmountIfFenceOlder(productName, product.getAmount() - 1, token) == 0) {
			return PurchaseOutcome.REJECTED_STALE;
		}
		record(productName, purchaser);
		return PurchaseOutcome.BOUGHT;
	}

	private Product find(String productName) {
		return this.products.findOneByName(productName)
			.orElseThrow(() -> new IllegalArgumentException("No product named '" + productName + "'"));
	}

	private void record(String productName, String purchaser) {
		this.history.save(new PurchaseHistory(productName, purchaser, LocalDateTime.now(), 1));
	}

}

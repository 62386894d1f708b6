package io.github.distlock.sample.shop;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockMode;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Resets a product before a race and reads what the race left.
 */
@Service
public class Inventory {

	/** Upper bound of a reset, so a typo cannot make a race run for hours. */
	public static final int MAX_AMOUNT = 100_000;

	private final ProductRepository products;

	private final PurchaseHistoryRepository history;

	public Inventory(ProductRepository products, PurchaseHistoryRepository history) {
		this.products = products;
		this.history = history;
	}

	/**
	 * Sets the stock of {@code productName} (creating the product if missing), forgets
	 * its fencing token and deletes its purchase history.
	 */
	@Transactional
	public void reset(String productName, int amount) {
		if (amount < 0 || amount > MAX_AMOUNT) {
			throw new IllegalArgumentException("amount must be between 0 and " + MAX_AMOUNT + ", was " + amount);
		}
		if (this.products.resetAmount(productName, amount) == 0) {
			this.products.save(new Product(productName, amount));
		}
		this.history.deleteByProductName(productName);
	}

	/** The current stock and the number of recorded purchases of {@code productName}. */
	@Transactional(readOnly = true)
	public StockLevel level(String productName) {
		int amount = this.products.findOneByName(productName)
			.orElseThrow(() -> new IllegalArgumentException("No product named '" + productName + "'"))
			.getAmount();
		return new StockLevel(amount, this.history.countByProductName(productName));
	}

	/**
	 * {@link #level} under the READ lock of the product's stock: shared with other
	 * readers, on any instance, and never while a locked purchase runs (it holds the
	 * WRITE lock of the same id, {@code stock:<product>}); so the stock and the purchases
	 * it reads always add up to what the last reset set, while purchases go on.
	 */
	@DistributedLock(name = "stock", key = "#productName", mode = LockMode.READ)
	@Transactional(readOnly = true)
	public StockLevel lockedLevel(String productName) {
		return level(productName);
	}

	/**
	 * Stock and recorded purchases of one product.
	 *
	 * @param amount stock left
	 * @param purchases purchase records
	 */
	public record StockLevel(int amount, long purchases) {
	}

}

package io.github.distlock.sample.shop;

import java.util.concurrent.atomic.AtomicLong;

import io.github.distlock.sample.SampleProperties;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The article's endpoint, {@code GET /product/buy?lock=Y|N}, plus {@code lock=F} for the
 * fenced path, a reset and the state. A buyer whose lock was not acquired in time gets
 * distlock's 503 answer ({@code distributed-lock.web.enabled} in
 * {@code application.yml}).
 */
@RestController
@RequestMapping("/product")
public class ProductController {

	public static final String PRODUCT_APPLE = "apple";

	public static final int INITIAL_STOCK = 100;

	private final BuyService buyService;

	private final Inventory inventory;

	private final SampleProperties properties;

	private final AtomicLong boughtHere = new AtomicLong();

	public ProductController(BuyService buyService, Inventory inventory, SampleProperties properties) {
		this.buyService = buyService;
		this.inventory = inventory;
		this.properties = properties;
	}

	/**
	 * Buys one apple.
	 * @param lock {@code N} (or absent) without a lock, {@code Y} with the distributed
	 * lock, {@code F} with the lock and a fenced write
	 * @param buyer who buys, recorded as the purchaser
	 * @return the outcome's name, as plain text
	 */
	@GetMapping(path = "/buy", produces = MediaType.TEXT_PLAIN_VALUE)
	public String buy(@RequestParam(name = "lock", defaultValue = "N") String lock,
			@RequestParam(name = "buyer", defaultValue = "anonymous") String buyer) {
		PurchaseOutcome outcome = switch (lock) {
			case "N" -> this.buyService.buyProduct(PRODUCT_APPLE, buyer);
			case "Y" -> this.buyService.buyProductWithLock(PRODUCT_APPLE, buyer);
			case "F" -> this.buyService.buyProductFenced(PRODUCT_APPLE, buyer);
			default ->
				throw new IllegalArgumentException("Request parameter 'lock' must be Y, N or F, was '" + lock + "'");
		};
		if (outcome == PurchaseOutcome.BOUGHT) {
			this.boughtHere.incrementAndGet();
		}
		return outcome.name();
	}

	/**
	 * Sets the stock (default 100), deletes the purchase history and zeroes this
	 * instance's counter.
	 */
	@PostMapping("/reset")
	public ProductState reset(@RequestParam(name = "amount", defaultValue = "" + INITIAL_STOCK) int amount) {
		this.inventory.reset(PRODUCT_APPLE, amount);
		this.boughtHere.set(0);
		return state();
	}

	@GetMapping("/state")
	public ProductState state() {
		Inventory.StockLevel level = this.inventory.level(PRODUCT_APPLE);
		return new ProductState(this.properties.getInstanceName(), PRODUCT_APPLE, level.amount(), level.purchases(),
				this.boughtHere.get());
	}

	/**
	 * The state read under the READ lock of the product: never in the middle of a locked
	 * purchase, so stock and purchases add up to the last reset.
	 */
	@GetMapping("/state/locked")
	public ProductState lockedState() {
		Inventory.StockLevel level = this.inventory.lockedLevel(PRODUCT_APPLE);
		return new ProductState(this.properties.getInstanceName(), PRODUCT_APPLE, level.amount(), level.purchases(),
				this.boughtHere.get());
	}

	@ExceptionHandler(IllegalArgumentException.class)
	ResponseEntity<String> badRequest(IllegalArgumentException ex) {
		return ResponseEntity.badRequest().contentType(MediaType.TEXT_PLAIN).body(ex.getMessage());
	}

}

package io.github.distlock.sample.shop;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.distlock.test.LocalRedisServer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reading the stock under the READ lock while locked purchases run, on a
 * {@code redis-server} of the test's own: every read sees the stock and the purchases add
 * up to the reset (a purchase decrements the stock and records itself under the WRITE
 * lock of the same id, so a read never falls between the two), and the purchases still
 * sell exactly the stock.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.datasource.url=jdbc:h2:mem:lockedreads;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000",
				"distributed-lock.wait-time=30s" })
@LocalRedisServer
class LockedStockReadTests {

	private static final String APPLE = ProductController.PRODUCT_APPLE;

	@Autowired
	private BuyService buyService;

	@Autowired
	private Inventory inventory;

	@Test
	void readsUnderTheReadLockNeverFallInsideAPurchase() throws Exception {
		int stock = 40;
		this.inventory.reset(APPLE, stock);
		ExecutorService executor = Executors.newFixedThreadPool(6);
		AtomicBoolean buying = new AtomicBoolean(true);
		try {
			List<Future<?>> buyers = new ArrayList<>();
			for (int b = 0; b < 4; b++) {
				String buyer = "buyer-" + b;
				buyers.add(executor.submit(() -> {
					for (int i = 0; i < 12; i++) {
						this.buyService.buyProductWithLock(APPLE, buyer);
					}
				}));
			}
			List<Future<List<Inventory.StockLevel>>> readers = new ArrayList<>();
			for (int r = 0; r < 2; r++) {
				readers.add(executor.submit(() -> {
					List<Inventory.StockLevel> seen = new ArrayList<>();
					while (buying.get()) {
						seen.add(this.inventory.lockedLevel(APPLE));
					}
					return seen;
				}));
			}
			for (Future<?> buyer : buyers) {
				buyer.get(2, TimeUnit.MINUTES);
			}
			buying.set(false);
			List<Inventory.StockLevel> seen = new ArrayList<>();
			for (Future<List<Inventory.StockLevel>> reader : readers) {
				seen.addAll(reader.get(1, TimeUnit.MINUTES));
			}
			System.out.println("[sample] " + seen.size() + " reads under the READ lock while 48 locked purchases"
					+ " of " + stock + " apples ran");
			assertThat(seen).isNotEmpty()
				.allSatisfy((level) -> assertThat(level.amount() + level.purchases()).isEqualTo(stock));
			assertThat(this.inventory.level(APPLE)).isEqualTo(new Inventory.StockLevel(0, stock));
		}
		finally {
			executor.shutdownNow();
		}
	}

}

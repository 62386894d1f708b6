package io.github.distlock.docs.shop;

import io.github.distlock.LockService;
import io.github.distlock.test.LocalRedisServer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

// tag::local-redis[]
@SpringBootTest
@LocalRedisServer // a redis-server of its own, on a free port; nothing to configure
class StockServiceRedisTests {

	@Autowired
	private StockService stockService;

	@Autowired
	private Inventory inventory;

	@Autowired
	private LockService locks;

	@Test
	void buyTakesAndReleasesTheLockInRedis() {
		this.inventory.stock("apple", 1);
		this.stockService.buy("apple");
		assertThat(this.inventory.amount("apple")).isZero();
		assertThat(this.locks.isLocked("stock:apple")).isFalse();
	}

}
// end::local-redis[]

package io.github.distlock.docs.shop;

import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;

import static org.assertj.core.api.Assertions.assertThat;

// tag::testcontainers[]
@SpringBootTest
@Testcontainers(disabledWithoutDocker = true)
class StockServiceContainerTests {

	@Container
	@ServiceConnection // distlock uses Boot's connection factory, so this is all it needs
	static GenericContainer<?> redis = new GenericContainer<>("redis:7.4-alpine").withExposedPorts(6379);

	@Autowired
	private StockService stockService;

	@Autowired
	private Inventory inventory;

	@Test
	void buys() {
		this.inventory.stock("apple", 1);
		this.stockService.buy("apple");
		assertThat(this.inventory.amount("apple")).isZero();
	}

}
// end::testcontainers[]

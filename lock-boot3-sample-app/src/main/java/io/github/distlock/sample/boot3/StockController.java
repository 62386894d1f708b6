package io.github.distlock.sample.boot3;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /stock/{sku}/buy} sells one item (409 when none is left); {@code GET
 * /stock/{sku}} tells how many are left.
 */
@RestController
class StockController {

	private final StockService stock;

	StockController(StockService stock) {
		this.stock = stock;
	}

	@PostMapping("/stock/{sku}/buy")
	ResponseEntity<Void> buy(@PathVariable String sku) {
		return this.stock.buy(sku) ? ResponseEntity.ok().build() : ResponseEntity.status(HttpStatus.CONFLICT).build();
	}

	@GetMapping("/stock/{sku}")
	int left(@PathVariable String sku) {
		return this.stock.left(sku);
	}

}

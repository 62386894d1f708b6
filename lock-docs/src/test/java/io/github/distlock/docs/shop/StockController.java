package io.github.distlock.docs.shop;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /stock/{sku}/buy}.
 */
@RestController
public class StockController {

	private final StockService stockService;

	public StockController(StockService stockService) {
		this.stockService = stockService;
	}

	@PostMapping("/stock/{sku}/buy")
	public String buy(@PathVariable String sku) {
		this.stockService.buy(sku);
		return "bought";
	}

}

package io.github.distlock.webflux.sample;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The shop over HTTP: {@code PUT /products/apple/stock?amount=100},
 * {@code POST /products/apple/buy} (200 bought, 409 sold out; 503 with
 * {@code Retry-After} when the lock was not acquired in time), the race without the lock
 * at {@code POST /products/apple/buy-unlocked}, and {@code GET /products/apple}.
 */
@RestController
@RequestMapping("/products/{sku}")
public class ShopController {

	private final ReactiveShop shop;

	public ShopController(ReactiveShop shop) {
		this.shop = shop;
	}

	@PutMapping("/stock")
	public Mono<Void> stock(@PathVariable String sku, @RequestParam int amount) {
		return this.shop.stock(sku, amount);
	}

	@PostMapping("/buy")
	public Mono<ResponseEntity<String>> buy(@PathVariable String sku) {
		return this.shop.buy(sku).map(ShopController::answer);
	}

	@PostMapping("/buy-unlocked")
	public Mono<ResponseEntity<String>> buyUnlocked(@PathVariable String sku) {
		return this.shop.buyUnlocked(sku).map(ShopController::answer);
	}

	@GetMapping
	public Mono<ReactiveShop.StockState> state(@PathVariable String sku) {
		return this.shop.state(sku);
	}

	private static ResponseEntity<String> answer(boolean sold) {
		return sold ? ResponseEntity.ok("bought") : ResponseEntity.status(HttpStatus.CONFLICT).body("sold out");
	}

}

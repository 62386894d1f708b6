package io.github.distlock.sample.shop;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Component;

/**
 * Puts the article's 100 apples in stock on first start. Instances sharing a database may
 * start together: the unique product name lets exactly one insert win.
 */
@Component
class ShopInitializer implements ApplicationRunner {

	private final ProductRepository products;

	ShopInitializer(ProductRepository products) {
		this.products = products;
	}

	@Override
	public void run(ApplicationArguments args) {
		if (this.products.findOneByName(ProductController.PRODUCT_APPLE).isPresent()) {
			return;
		}
		try {
			this.products.save(new Product(ProductController.PRODUCT_APPLE, ProductController.INITIAL_STOCK));
		}
		catch (DataIntegrityViolationException ex) {
			// Another instance inserted it first.
		}
	}

}

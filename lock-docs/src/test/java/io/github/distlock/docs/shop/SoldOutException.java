package io.github.distlock.docs.shop;

/**
 * Nothing left of a product.
 */
public class SoldOutException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public SoldOutException(String sku) {
		super("Sold out: " + sku);
	}

}

package io.github.distlock.docs.shop;

/**
 * An order, as a key expression sees an argument.
 *
 * @param id the order id
 * @param customer who ordered
 */
public record Order(String id, String customer) {
}

package io.github.distlock.sample.shop;

/**
 * What one instance reports about the product: the shared stock and history, and what it
 * sold itself.
 *
 * @param instance name of the instance ({@code sample.instance-name})
 * @param product product name
 * @param amount stock left, as stored in the shared database
 * @param purchases purchase records in the shared database
 * @param boughtHere purchases this instance answered {@code BOUGHT} to since the last
 * reset
 */
public record ProductState(String instance, String product, int amount, long purchases, long boughtHere) {
}

/**
 * The shop of the seed article: products, purchase history and the three ways to buy.
 */
@NullMarked
package io.github.distlock.sample.shop;

import org.jspecify.annotations.NullMarked;

/**
 * The WebFlux sample: the oversold race through a reactive {@code @DistributedLock}.
 */
@NullMarked
package io.github.distlock.webflux.sample;

import org.jspecify.annotations.NullMarked;

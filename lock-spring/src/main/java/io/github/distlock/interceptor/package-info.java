/**
 * Method interception for {@link io.github.distlock.DistributedLock @DistributedLock},
 * modelled on Spring's cache and transaction infrastructure.
 */
@NullMarked
package io.github.distlock.interceptor;

import org.jspecify.annotations.NullMarked;

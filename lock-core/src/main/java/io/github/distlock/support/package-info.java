/**
 * Small helpers shared by the lock implementation, the interceptor and the
 * auto-configuration.
 */
@NullMarked
package io.github.distlock.support;

import org.jspecify.annotations.NullMarked;

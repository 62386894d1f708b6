/**
 * Small helpers shared by the lock implementation and the interceptor.
 */
@NullMarked
package io.github.distlock.support;

import org.jspecify.annotations.NullMarked;

/**
 * Actuator support: the {@code locks} endpoint and the {@code distributedLock} health
 * contributor.
 */
@NullMarked
package io.github.distlock.actuate;

import org.jspecify.annotations.NullMarked;

/**
 * The lock engine in a Spring application context: lifecycle and loss events.
 */
@NullMarked
package io.github.distlock.context;

import org.jspecify.annotations.NullMarked;

/**
 * The lock engine, independent of where locks are stored, and what it lets operators
 * inspect.
 */
@NullMarked
package io.github.distlock.core;

import org.jspecify.annotations.NullMarked;

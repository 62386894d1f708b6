/**
 * The documentation's own tests: every Java snippet of {@code README.md} and
 * {@code docs/} is a tagged region of a source in {@code shop} or {@code aspectj}, every
 * API listing matches the public API, and the properties reference matches the
 * configuration metadata.
 */
@NullMarked
package io.github.distlock.docs;

import org.jspecify.annotations.NullMarked;

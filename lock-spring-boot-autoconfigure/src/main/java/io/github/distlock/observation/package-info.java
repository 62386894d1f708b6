/**
 * Micrometer observations of acquiring and holding locks: documentation, contexts and
 * conventions, following Spring Framework's scheduled-task observations.
 */
@NullMarked
package io.github.distlock.observation;

import org.jspecify.annotations.NullMarked;

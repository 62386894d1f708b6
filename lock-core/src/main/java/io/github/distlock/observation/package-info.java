/**
 * Micrometer observations of acquiring and holding locks (documentation, contexts and
 * conventions, following Spring Framework's scheduled-task observations) and the lock
 * service's meters.
 */
@NullMarked
package io.github.distlock.observation;

import org.jspecify.annotations.NullMarked;

/**
 * The 200-buyer race over HTTP against one or more instances, and the dashboard's
 * endpoints.
 */
@NullMarked
package io.github.distlock.sample.race;

import org.jspecify.annotations.NullMarked;

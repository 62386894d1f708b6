/**
 * The one-command demo: starts a database, a Redis if needed and several instances as
 * separate processes, races them and prints the comparison table.
 */
@NullMarked
package io.github.distlock.sample.demo;

import org.jspecify.annotations.NullMarked;

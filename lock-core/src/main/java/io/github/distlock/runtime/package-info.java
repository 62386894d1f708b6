/**
 * The platform under the engine and the quorum store: the clock, parking, threads and
 * owner tokens they run on ({@link io.github.distlock.runtime.EngineRuntime},
 * {@link io.github.distlock.runtime.TaskPool}), and its JVM implementation. A test gives
 * an engine another runtime (a simulation's virtual time and threads) through
 * {@code LockEngine}'s constructor.
 */
@NullMarked
package io.github.distlock.runtime;

import org.jspecify.annotations.NullMarked;

/**
 * Real {@code redis-server} processes on free loopback ports for integration tests, fault tests, demos and
 * benchmarks. The entry point is {@link io.github.distlock.testsupport.RedisServer}.
 */
package io.github.distlock.testsupport;

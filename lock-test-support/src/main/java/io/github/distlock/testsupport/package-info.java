/**
 * Real {@code redis-server} processes on free loopback ports for integration tests, fault
 * tests, demos and benchmarks. The entry point is
 * {@link io.github.distlock.testsupport.RedisServer}; topologies of them are
 * {@link io.github.distlock.testsupport.RedisCluster} (3 masters, 3 replicas) and
 * {@link io.github.distlock.testsupport.RedisSentinelGroup} (a master, 2 replicas, 3
 * Sentinels), with helpers to fail over, move slots and lose unreplicated writes.
 *
 * <p>
 * The fault-injection harness lives here too, in main code, because none of it depends on
 * the lock library: {@link io.github.distlock.testsupport.TcpProxy} (latency, black
 * holes, held replies, resets), {@link io.github.distlock.testsupport.ClientJvm}
 * (separate client processes: start, SIGSTOP/SIGCONT/SIGKILL, collect their output),
 * {@link io.github.distlock.testsupport.FencedResource} (a store that accepts only newer
 * fencing tokens) and {@link io.github.distlock.testsupport.OverlapChecker} over
 * {@link io.github.distlock.testsupport.Hold} histories. Topology tests and the
 * benchmarks reuse them with any lock client; the lock workload itself, which needs the
 * lock library, is in the {@code lock-fault-tests} module.
 */
package io.github.distlock.testsupport;

package io.github.distlock.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Starts the processes of a {@link RedisSentinelGroup}: the master, its two replicas
 * ({@code --replicaof}), then three Sentinels (quorum 2), each from a configuration file
 * of its own in the group's directory (Sentinel rewrites it), and waits until the group
 * is healthy.
 */
final class SentinelGroupFormation {

	static final int REPLICAS = 2;

	static final int SENTINELS = 3;

	private static final int QUORUM = 2;

	private SentinelGroupFormation() {
	}

	/**
	 * Starts a group and returns it once it is healthy, printing how long that took; if
	 * anything fails, closes what was started.
	 */
	static RedisSentinelGroup start(String masterName, Duration downAfter, Duration failoverTimeout,
			NodeArgs nodeArgs) {
		long started = System.nanoTime();
		RedisSentinelGroup group = new RedisSentinelGroup(masterName,
				TopologyResources.create("distlock-redis-sentinel-"));
		group.startOrClose(() -> {
			RedisServer master = group.addNode(nodeArgs.applyTo(RedisServer.builder()).start());
			for (int i = 0; i < REPLICAS; i++) {
				group.addNode(nodeArgs.applyTo(RedisServer.builder().replicaOf(master)).start());
			}
			String config = String.join("\n", "sentinel resolve-hostnames no",
					"sentinel monitor " + masterName + " " + master.host() + " " + master.port() + " " + QUORUM,
					"sentinel down-after-milliseconds " + masterName + " " + downAfter.toMillis(),
					"sentinel failover-timeout " + masterName + " " + failoverTimeout.toMillis(),
					"sentinel parallel-syncs " + masterName + " " + REPLICAS, "");
			for (int i = 0; i < SENTINELS; i++) {
				Path file = write(group.resources().resolve("sentinel-" + i + ".conf"), config);
				group.addSentinel(RedisServer.builder().configFile(file).arg("sentinel").start());
			}
			group.awaitHealthy();
		});
		System.out.println("[redis-sentinel] 1 master + " + REPLICAS + " replicas + " + SENTINELS
				+ " sentinels ready in " + RedisTopology.elapsed(started).toMillis() + " ms: master " + masterName
				+ ", sentinels " + group.sentinelNodes());
		return group;
	}

	private static Path write(Path file, String config) {
		try {
			return Files.writeString(file, config);
		}
		catch (IOException e) {
			throw new UncheckedIOException("Could not write the Sentinel configuration " + file, e);
		}
	}

}

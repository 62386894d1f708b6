package io.github.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Topologies leave nothing behind: not on {@code close()}, and not when the JVM exits
 * without closing them, with replication frozen (paused replicas).
 */
class TopologyCleanupTests {

	@Test
	void closedTopologiesLeaveNoProcessAndNoFile() {
		List<Long> pids = new ArrayList<>();
		List<Path> files = new ArrayList<>();
		try (RedisCluster cluster = RedisCluster.start(); RedisSentinelGroup group = RedisSentinelGroup.start()) {
			cluster.servers().forEach(server -> pids.add(server.pid()));
			group.servers().forEach(server -> pids.add(server.pid()));
			group.sentinels().forEach(sentinel -> pids.add(sentinel.pid()));
			files.add(cluster.directory());
			files.add(group.directory());
			cluster.freezeReplication(cluster.masters().get(0));
			group.freezeReplication();
			assertThat(files).allMatch(Files::isDirectory);
		}
		assertThat(pids).hasSize(12).allMatch(pid -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
		assertThat(files).noneMatch(Files::exists);
	}

	@Test
	void topologiesLeftOpenAreKilledAndDeletedWhenTheJvmExits() throws IOException, InterruptedException {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
				LeakingMain.class.getName())
			.redirectErrorStream(true)
			.start();
		assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child JVM finished").isTrue();
		String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(child.exitValue()).as(output).isEqualTo(3);

		List<Long> pids = output.lines()
			.filter(line -> line.startsWith("pid="))
			.map(line -> Long.parseLong(line.substring(4)))
			.toList();
		List<Path> directories = output.lines()
			.filter(line -> line.startsWith("dir="))
			.map(line -> Path.of(line.substring(4)))
			.toList();
		assertThat(pids).as(output).hasSize(12);
		assertThat(directories).as(output).hasSize(2);
		RedisServerTests.awaitUntil(Duration.ofSeconds(10),
				() -> pids.stream().noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)),
				() -> "a redis-server of the topologies outlived its JVM: " + pids);
		assertThat(directories).noneMatch(Files::exists);
	}

	/**
	 * Starts both topologies, freezes replication in each and exits without closing them.
	 */
	public static final class LeakingMain {

		public static void main(String[] args) {
			RedisCluster cluster = RedisCluster.start();
			RedisSentinelGroup group = RedisSentinelGroup.start();
			cluster.freezeReplication(cluster.masters().get(0));
			group.freezeReplication();
			List<RedisServer> all = new ArrayList<>(cluster.servers());
			all.addAll(group.servers());
			all.addAll(group.sentinels());
			all.forEach(server -> System.out.println("pid=" + server.pid()));
			System.out.println("dir=" + cluster.directory());
			System.out.println("dir=" + group.directory());
			System.exit(3);
		}

	}

}

package io.github.distlock.redis;

import java.util.ArrayList;
import java.util.List;

import io.github.distlock.testsupport.RedisServer;
import org.awaitility.Awaitility;

/** TEMPORARY: 3 masters, no replicas, until the topologies branch lands. */
final class ScratchCluster implements AutoCloseable {

	final List<RedisServer> masters = new ArrayList<>();

	ScratchCluster() {
		try {
			for (int i = 0; i < 3; i++) {
				this.masters.add(RedisServer.builder()
					.arg("cluster-enabled", "yes")
					.arg("cluster-node-timeout", "2000")
					.start());
			}
			int[][] ranges = { { 0, 5460 }, { 5461, 10922 }, { 10923, 16383 } };
			for (int i = 0; i < 3; i++) {
				this.masters.get(i).command("CLUSTER", "ADDSLOTSRANGE", "" + ranges[i][0], "" + ranges[i][1]);
			}
			for (int i = 1; i < 3; i++) {
				this.masters.get(0).command("CLUSTER", "MEET", "127.0.0.1", "" + this.masters.get(i).port());
			}
			Awaitility.await()
				.atMost(java.time.Duration.ofSeconds(20))
				.until(() -> this.masters.stream()
					.allMatch((m) -> m.command("CLUSTER", "INFO").contains("cluster_state:ok")
							&& m.command("CLUSTER", "INFO").contains("cluster_known_nodes:3")));
		}
		catch (RuntimeException ex) {
			close();
			throw ex;
		}
	}

	List<String> nodes() {
		return this.masters.stream().map((m) -> m.host() + ":" + m.port()).toList();
	}

	RedisServer masterOf(String key) {
		int slot = Integer.parseInt(this.masters.get(0).command("CLUSTER", "KEYSLOT", key));
		return this.masters.get((slot <= 5460) ? 0 : (slot <= 10922) ? 1 : 2);
	}

	@Override
	public void close() {
		this.masters.forEach(RedisServer::close);
	}

}

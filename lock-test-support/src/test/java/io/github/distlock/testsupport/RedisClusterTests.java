package io.github.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Proves on real processes that {@link RedisCluster}'s helpers do what they say. One
 * cluster for the class; the extension heals it (restarts killed nodes) before each test.
 */
class RedisClusterTests {

	@RegisterExtension
	static final RedisClusterExtension extension = new RedisClusterExtension();

	@Test
	void startsThreeMastersWithOneReplicaEachAndEverySlotServed() {
		RedisCluster cluster = extension.cluster();
		List<RedisServer> masters = cluster.masters();
		assertThat(masters).hasSize(3);
		assertThat(cluster.replicas()).hasSize(3);
		assertThat(cluster.servers()).hasSize(6).containsAll(masters).containsAll(cluster.replicas());
		assertThat(cluster.nodes().split(",")).hasSize(6).allMatch(node -> node.matches("127\\.0\\.0\\.1:\\d+"));
		Set<RedisServer> replicasSeen = new HashSet<>();
		for (RedisServer master : masters) {
			RedisServer replica = cluster.replicaOf(master);
			replicasSeen.add(replica);
			assertThat(RedisCluster.role(master)).isEqualTo("master");
			assertThat(RedisCluster.role(replica)).isEqualTo("slave " + master.port());
			assertThat(replica.command("CONFIG", "GET", "cluster-replica-validity-factor"))
				.isEqualTo("cluster-replica-validity-factor\n0");
		}
		assertThat(replicasSeen).hasSize(3);
		for (RedisServer node : cluster.servers()) {
			String info = node.command("CLUSTER", "INFO");
			assertThat(RedisInfo.field(info, "cluster_state")).isEqualTo("ok");
			assertThat(RedisInfo.field(info, "cluster_slots_assigned")).isEqualTo("16384");
			assertThat(RedisInfo.field(info, "cluster_known_nodes")).isEqualTo("6");
		}
		assertThat(cluster.masterForSlot(0)).isEqualTo(masters.get(0));
		assertThat(cluster.masterForSlot(16383)).isEqualTo(masters.get(2));
		assertThatThrownBy(() -> cluster.masterForSlot(16384)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("slot must be 0..16383, was 16384");
	}

	@Test
	void masterOfAKeyIsTheNodeThatAcceptsItAndTheOthersRedirect() {
		RedisCluster cluster = extension.cluster();
		Set<RedisServer> mastersUsed = new HashSet<>();
		for (int i = 0; i < 30; i++) {
			String key = "lock:{order-" + i + "}";
			int slot = cluster.keySlot(key);
			RedisServer master = cluster.masterOf(key);
			mastersUsed.add(master);
			assertThat(master.command("SET", key, "v")).isEqualTo("OK");
			for (RedisServer other : cluster.masters()) {
				if (!other.equals(master)) {
					assertThatThrownBy(() -> other.command("GET", key)).isInstanceOf(RedisServerException.class)
						.hasMessage("MOVED " + slot + " 127.0.0.1:" + master.port());
				}
			}
		}
		assertThat(mastersUsed).hasSize(3);
	}

	@Test
	void failoverPromotesTheReplicaWithTheDataAndDemotesTheMaster() {
		RedisCluster cluster = extension.cluster();
		String key = "failover:{a}";
		RedisServer master = cluster.masterOf(key);
		RedisServer replica = cluster.replicaOf(master);
		master.command("SET", key, "before");

		RedisServer promoted = cluster.failover(master);

		assertThat(promoted).isEqualTo(replica);
		assertThat(cluster.masterOf(key)).isEqualTo(promoted);
		assertThat(promoted.command("GET", key)).isEqualTo("before");
		assertThat(RedisCluster.role(master)).isEqualTo("slave " + promoted.port());
		assertThat(cluster.replicaOf(promoted)).isEqualTo(master);
		assertThat(cluster.masters()).hasSize(3).contains(promoted).doesNotContain(master);
		assertHealthyEverywhere(cluster);
	}

	@Test
	void killMasterPromotesItsReplicaAndTheKilledNodeRejoinsAsReplica() {
		RedisCluster cluster = extension.cluster();
		String key = "kill:{b}";
		RedisServer master = cluster.masterOf(key);
		RedisServer replica = cluster.replicaOf(master);
		master.command("SET", key, "replicated");
		assertThat(master.command("WAIT", "1", "5000")).isEqualTo("1");

		RedisServer promoted = cluster.killMaster(master);

		assertThat(promoted).isEqualTo(replica);
		assertThat(master.isRunning()).isFalse();
		assertThat(cluster.masterOf(key)).isEqualTo(promoted);
		assertThat(promoted.command("GET", key)).isEqualTo("replicated");
		assertHealthyEverywhere(cluster);

		cluster.restartAsReplica(master);

		assertThat(RedisCluster.role(master)).isEqualTo("slave " + promoted.port());
		assertThat(cluster.replicaOf(promoted)).isEqualTo(master);
		assertThat(master.command("READONLY")).isEqualTo("OK");
		assertThat(cluster.replicas()).hasSize(3).contains(master);
	}

	@Test
	void migrateSlotMovesTheSlotWithItsKeysAndTheirTimeToLive() {
		RedisCluster cluster = extension.cluster();
		String tag = "{migrate}";
		int slot = cluster.keySlot(tag);
		RedisServer from = cluster.masterForSlot(slot);
		RedisServer to = otherMaster(cluster, from);
		for (int i = 0; i < 250; i++) {
			from.command("SET", "k" + i + tag, "v" + i, "PX", "600000");
		}

		cluster.migrateSlot(slot, from, to);

		assertThat(cluster.masterForSlot(slot)).isEqualTo(to);
		assertThat(to.command("CLUSTER", "COUNTKEYSINSLOT", Integer.toString(slot))).isEqualTo("250");
		assertThat(from.command("CLUSTER", "COUNTKEYSINSLOT", Integer.toString(slot))).isEqualTo("0");
		assertThat(to.command("GET", "k7" + tag)).isEqualTo("v7");
		assertThat(Long.parseLong(to.command("PTTL", "k7" + tag))).isBetween(1L, 600_000L);
		assertThatThrownBy(() -> from.command("GET", "k7" + tag)).isInstanceOf(RedisServerException.class)
			.hasMessage("MOVED " + slot + " 127.0.0.1:" + to.port());
		for (RedisServer node : cluster.liveNodes()) {
			assertThat(ClusterNodeEntry.parse(node.command("CLUSTER", "NODES")))
				.anyMatch(entry -> entry.port() == to.port() && entry.slots().get(slot));
		}
		assertHealthyEverywhere(cluster);
	}

	@Test
	void halfMigratedSlotServesRemainingKeysAtTheSourceAndRedirectsTheRestWithAsk() throws IOException {
		RedisCluster cluster = extension.cluster();
		String tag = "{half}";
		int slot = cluster.keySlot(tag);
		RedisServer from = cluster.masterForSlot(slot);
		RedisServer to = otherMaster(cluster, from);
		from.command("SET", "old" + tag, "at-source");

		ClusterSlotMigration migration = cluster.beginSlotMigration(slot, from, to);

		String ask = "ASK " + slot + " 127.0.0.1:" + to.port();
		assertThat(from.command("GET", "old" + tag)).isEqualTo("at-source");
		assertThatThrownBy(() -> from.command("SET", "new" + tag, "v")).isInstanceOf(RedisServerException.class)
			.hasMessage(ask);
		assertThat(askingThenCall(to, "SET", "new" + tag, "at-target")).isEqualTo("OK");
		assertThat(cluster.masterForSlot(slot)).isEqualTo(from);

		assertThat(migration.moveKeys()).isEqualTo(1);
		assertThatThrownBy(() -> from.command("GET", "old" + tag)).isInstanceOf(RedisServerException.class)
			.hasMessage(ask);
		assertThat(askingThenCall(to, "GET", "old" + tag)).isEqualTo("at-source");

		migration.finish();

		assertThat(cluster.masterForSlot(slot)).isEqualTo(to);
		assertThat(to.command("GET", "new" + tag)).isEqualTo("at-target");
		assertThat(to.command("GET", "old" + tag)).isEqualTo("at-source");
		assertThatThrownBy(migration::moveKeys).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("already finished");
		assertHealthyEverywhere(cluster);
	}

	@Test
	void frozenReplicationKeepsNewWritesFromTheReplicaUntilResumed() {
		RedisCluster cluster = extension.cluster();
		String key = "freeze:{c}";
		RedisServer master = cluster.masterOf(key);
		RedisServer replica = cluster.replicaOf(master);

		try (ReplicationFreeze freeze = cluster.freezeReplication(master)) {
			assertThat(freeze.replicas()).containsExactly(replica);
			assertThat(replica.isPaused()).isTrue();
			assertThat(RedisInfo.field(master.command("INFO", "replication"), "connected_slaves")).isEqualTo("0");
			master.command("SET", key, "while-frozen");
			assertThat(master.command("WAIT", "1", "200")).isEqualTo("0");
		}

		assertThat(replica.isPaused()).isFalse();
		assertThat(readOnReplica(replica, key)).isEqualTo("while-frozen");
		assertThat(master.command("WAIT", "1", "5000")).isEqualTo("1");
	}

	@Test
	void loseUnreplicatedWritesPromotesTheReplicaWithoutWhatWasWrittenWhileFrozen() {
		RedisCluster cluster = extension.cluster();
		String tag = "{lost}";
		RedisServer master = cluster.masterOf(tag);
		RedisServer replica = cluster.replicaOf(master);
		List<String> written = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			master.command("SET", "before-" + i + tag, "kept");
		}
		assertThat(master.command("WAIT", "1", "5000")).isEqualTo("1");

		RedisServer promoted = cluster.loseUnreplicatedWrites(master, () -> {
			for (int i = 0; i < 20; i++) {
				assertThat(master.command("SET", "during-" + i + tag, "lost")).isEqualTo("OK");
				written.add("during-" + i + tag);
			}
		});

		assertThat(promoted).isEqualTo(replica);
		assertThat(master.isRunning()).isFalse();
		assertThat(cluster.masterOf(tag)).isEqualTo(promoted);
		assertThat(written).hasSize(20);
		for (int i = 0; i < 20; i++) {
			assertThat(promoted.command("GET", "before-" + i + tag)).isEqualTo("kept");
			assertThat(promoted.command("GET", "during-" + i + tag)).isNull();
		}
		assertHealthyEverywhere(cluster);
		System.out.println("[cluster-failover-loss] 20 keys written before the freeze kept, 20 written while frozen"
				+ " acknowledged by master " + master.port() + " and absent on promoted " + promoted.port());
	}

	@Test
	void rejectsNodesAndSlotsThatDoNotFit() {
		RedisCluster cluster = extension.cluster();
		RedisServer master = cluster.masters().get(0);
		RedisServer replica = cluster.replicaOf(master);
		int slotOfMaster = 0;
		assertThatThrownBy(() -> cluster.failover(replica)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("node " + replica.port() + " is not a master serving slots");
		assertThatThrownBy(() -> cluster.beginSlotMigration(slotOfMaster, master, master))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("to itself");
		RedisServer other = otherMaster(cluster, master);
		assertThatThrownBy(() -> cluster.beginSlotMigration(slotOfMaster, other, master))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("slot 0 is served by " + master.port() + ", not by " + other.port());
		try (RedisServer stranger = RedisServer.start()) {
			assertThatThrownBy(() -> cluster.killMaster(stranger)).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("is not a node of this cluster");
		}
		assertThatThrownBy(() -> cluster.restartAsReplica(master)).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("only a killed node can rejoin");
	}

	private static RedisServer otherMaster(RedisCluster cluster, RedisServer master) {
		return cluster.masters().stream().filter(other -> !other.equals(master)).findFirst().orElseThrow();
	}

	private static String askingThenCall(RedisServer node, String... command) throws IOException {
		try (RespConnection connection = RespConnection.open(node.host(), node.port(),
				java.time.Duration.ofSeconds(5))) {
			connection.call("ASKING");
			return (String) connection.call(command);
		}
	}

	private static String readOnReplica(RedisServer replica, String key) {
		try (RespConnection connection = RespConnection.open(replica.host(), replica.port(),
				java.time.Duration.ofSeconds(5))) {
			connection.call("READONLY");
			return (String) connection.call("GET", key);
		}
		catch (IOException e) {
			throw new java.io.UncheckedIOException(e);
		}
	}

	private static void assertHealthyEverywhere(RedisCluster cluster) {
		for (RedisServer node : cluster.liveNodes()) {
			assertThat(RedisInfo.field(node.command("CLUSTER", "INFO"), "cluster_state"))
				.as("cluster_state on %s", node.port())
				.isEqualTo("ok");
		}
	}

}

package io.github.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Proves on real processes that {@link RedisSentinelGroup}'s helpers do what they say.
 * One group for the class; the extension heals it (restarts killed nodes) before each
 * test.
 */
class RedisSentinelGroupTests {

	@RegisterExtension
	static final RedisSentinelGroupExtension extension = new RedisSentinelGroupExtension();

	@Test
	void startsAMasterWithTwoReplicasWatchedByThreeSentinelsThatKnowEachOther() {
		RedisSentinelGroup group = extension.group();
		RedisServer master = group.master();
		List<RedisServer> replicas = group.replicas();
		assertThat(group.masterName()).isEqualTo("distlock");
		assertThat(group.servers()).hasSize(3).contains(master).containsAll(replicas);
		assertThat(replicas).hasSize(2).doesNotContain(master);
		assertThat(RedisCluster.role(master)).isEqualTo("master");
		for (RedisServer replica : replicas) {
			assertThat(RedisCluster.role(replica)).isEqualTo("slave " + master.port());
		}
		assertThat(group.sentinels()).hasSize(3);
		assertThat(group.sentinelNodes().split(",")).hasSize(3).allMatch(node -> node.matches("127\\.0\\.0\\.1:\\d+"));
		for (RedisServer sentinel : group.sentinels()) {
			assertThat(sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", "distlock"))
				.isEqualTo("127.0.0.1\n" + master.port());
			SentinelView view = SentinelView.read(sentinel, "distlock");
			assertThat(view.masterUp()).isTrue();
			assertThat(view.master()).containsEntry("num-slaves", "2")
				.containsEntry("num-other-sentinels", "2")
				.containsEntry("quorum", "2")
				.containsEntry("down-after-milliseconds", "2000")
				.containsEntry("failover-timeout", "5000");
			for (RedisServer replica : replicas) {
				assertThat(view.reachesReplica(replica.port())).isTrue();
			}
		}
	}

	@Test
	void failoverPromotesAReplicaWithTheDataAndTheOldMasterFollowsIt() {
		RedisSentinelGroup group = extension.group();
		RedisServer oldMaster = group.master();
		List<RedisServer> replicas = group.replicas();
		oldMaster.command("SET", "k", "before");
		assertThat(oldMaster.command("WAIT", "2", "5000")).isEqualTo("2");

		RedisServer promoted = group.failover();

		assertThat(replicas).contains(promoted);
		assertThat(RedisCluster.role(promoted)).isEqualTo("master");
		assertThat(promoted.command("GET", "k")).isEqualTo("before");
		assertThat(group.replicas()).hasSize(2).contains(oldMaster);
		for (RedisServer replica : group.replicas()) {
			assertThat(RedisCluster.role(replica)).isEqualTo("slave " + promoted.port());
		}
		assertEverySentinelReports(group, promoted);
	}

	@Test
	void killMasterPromotesAReplicaAndTheKilledNodeRejoinsAsReplica() {
		RedisSentinelGroup group = extension.group();
		RedisServer oldMaster = group.master();
		List<RedisServer> replicas = group.replicas();
		oldMaster.command("SET", "k", "replicated");
		assertThat(oldMaster.command("WAIT", "2", "5000")).isEqualTo("2");

		RedisServer promoted = group.killMaster();

		assertThat(oldMaster.isRunning()).isFalse();
		assertThat(replicas).contains(promoted);
		assertThat(promoted.command("GET", "k")).isEqualTo("replicated");
		assertThat(group.replicas()).hasSize(1).doesNotContain(oldMaster);
		assertEverySentinelReports(group, promoted);

		group.restartAsReplica(oldMaster);

		assertThat(RedisCluster.role(oldMaster)).isEqualTo("slave " + promoted.port());
		assertThat(oldMaster.command("GET", "k")).isEqualTo("replicated");
		assertThat(group.replicas()).hasSize(2).contains(oldMaster);
	}

	@Test
	void frozenReplicationKeepsNewWritesFromBothReplicasUntilResumed() {
		RedisSentinelGroup group = extension.group();
		RedisServer master = group.master();

		try (ReplicationFreeze freeze = group.freezeReplication()) {
			assertThat(freeze.master()).isEqualTo(master);
			assertThat(freeze.replicas()).hasSize(2).allMatch(RedisServer::isPaused);
			assertThat(RedisInfo.field(master.command("INFO", "replication"), "connected_slaves")).isEqualTo("0");
			master.command("SET", "k", "while-frozen");
			assertThat(master.command("WAIT", "1", "200")).isEqualTo("0");
		}

		for (RedisServer replica : group.replicas()) {
			assertThat(replica.isPaused()).isFalse();
			assertThat(replica.command("GET", "k")).isEqualTo("while-frozen");
		}
		assertThat(group.master()).isEqualTo(master);
	}

	@Test
	void loseUnreplicatedWritesPromotesAReplicaWithoutWhatWasWrittenWhileFrozen() {
		RedisSentinelGroup group = extension.group();
		RedisServer oldMaster = group.master();
		List<RedisServer> replicas = group.replicas();
		for (int i = 0; i < 20; i++) {
			oldMaster.command("SET", "before-" + i, "kept");
		}
		assertThat(oldMaster.command("WAIT", "2", "5000")).isEqualTo("2");

		RedisServer promoted = group.loseUnreplicatedWrites(() -> {
			for (int i = 0; i < 20; i++) {
				assertThat(oldMaster.command("SET", "during-" + i, "lost")).isEqualTo("OK");
			}
		});

		assertThat(oldMaster.isRunning()).isFalse();
		assertThat(replicas).contains(promoted);
		assertEverySentinelReports(group, promoted);
		for (RedisServer node : replicas) {
			for (int i = 0; i < 20; i++) {
				assertThat(node.command("GET", "before-" + i)).isEqualTo("kept");
				assertThat(node.command("GET", "during-" + i)).isNull();
			}
		}
		System.out.println("[sentinel-failover-loss] 20 keys written before the freeze kept, 20 written while frozen"
				+ " acknowledged by master " + oldMaster.port() + " and absent on promoted " + promoted.port()
				+ " and on the other replica");
	}

	@Test
	void rejectsNodesThatDoNotFit() {
		RedisSentinelGroup group = extension.group();
		assertThatThrownBy(() -> group.restartAsReplica(group.master())).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("only a killed node can rejoin");
		assertThatThrownBy(() -> group.restartAsReplica(group.sentinels().get(0)))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("is not a data node of this group");
		assertThatThrownBy(() -> RedisSentinelGroup.builder().masterName("my master"))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("was my master");
	}

	private static void assertEverySentinelReports(RedisSentinelGroup group, RedisServer master) {
		for (RedisServer sentinel : group.sentinels()) {
			assertThat(sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", group.masterName()))
				.as("master reported by sentinel %s", sentinel.port())
				.isEqualTo("127.0.0.1\n" + master.port());
		}
	}

}

package io.github.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs small test classes (static nested, so neither Surefire nor JUnit picks them up on
 * their own) through the JUnit launcher: a first test leaves its topology broken (master
 * killed, a replica paused, a key written), the second finds it healed and empty, the
 * third fails; afterwards every process is gone.
 */
class TopologyExtensionTests {

	/** What the second test of a nested class found, one line per check. */
	static final List<String> found = new ArrayList<>();

	static final List<RedisServer> processes = new ArrayList<>();

	@Test
	void clusterExtensionHealsTheClusterBeforeEachTestAndClosesItAfterAllEvenAfterAFailure() {
		TestExecutionSummary summary = run(ClusterLeftBroken.class);

		assertThat(summary.getTestsSucceededCount()).as(failures(summary)).isEqualTo(2);
		assertThat(summary.getTotalFailureCount()).isEqualTo(1);
		assertThat(found).containsExactly("killed node running as a replica: true", "paused node resumed: true",
				"masters: 3, replicas: 3", "key left by the first test: null");
		assertThat(processes).hasSize(6).noneMatch(RedisServer::isRunning);
	}

	@Test
	void sentinelExtensionHealsTheGroupBeforeEachTestAndClosesItAfterAllEvenAfterAFailure() {
		TestExecutionSummary summary = run(SentinelGroupLeftBroken.class);

		assertThat(summary.getTestsSucceededCount()).as(failures(summary)).isEqualTo(2);
		assertThat(summary.getTotalFailureCount()).isEqualTo(1);
		assertThat(found).containsExactly("killed node running as a replica: true", "paused node resumed: true",
				"replicas: 2", "key left by the first test: null");
		assertThat(processes).hasSize(6).noneMatch(RedisServer::isRunning);
	}

	@Test
	void extensionsOutsideATestClassLifecycleSayHowToRegisterThem() {
		assertThatIllegalStateException().isThrownBy(new RedisClusterExtension()::cluster)
			.withMessageContaining("static field");
		assertThatIllegalStateException().isThrownBy(new RedisSentinelGroupExtension()::group)
			.withMessageContaining("static field");
	}

	private static TestExecutionSummary run(Class<?> testClass) {
		found.clear();
		processes.clear();
		SummaryGeneratingListener listener = new SummaryGeneratingListener();
		LauncherFactory.create()
			.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(), listener);
		return listener.getSummary();
	}

	private static String failures(TestExecutionSummary summary) {
		StringBuilder text = new StringBuilder();
		summary.getFailures().forEach(failure -> text.append(failure.getException()).append('\n'));
		return text.toString();
	}

	@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
	static class ClusterLeftBroken {

		@RegisterExtension
		static final RedisClusterExtension extension = new RedisClusterExtension();

		static RedisServer killed;

		static RedisServer paused;

		@Test
		@Order(1)
		void breaksTheCluster() {
			RedisCluster cluster = extension.cluster();
			RedisServer master = cluster.masterOf("left-behind");
			master.command("SET", "left-behind", "v");
			killed = master;
			RedisServer promoted = cluster.killMaster(master);
			paused = cluster.replicaOf(cluster.masters().stream().filter(m -> !m.equals(promoted)).findFirst().get());
			paused.pause();
		}

		@Test
		@Order(2)
		void findsItHealedAndEmpty() {
			RedisCluster cluster = extension.cluster();
			found.add("killed node running as a replica: "
					+ (killed.isRunning() && RedisCluster.role(killed).startsWith("slave")));
			found.add("paused node resumed: " + !paused.isPaused());
			found.add("masters: " + cluster.masters().size() + ", replicas: " + cluster.replicas().size());
			found.add("key left by the first test: " + cluster.masterOf("left-behind").command("GET", "left-behind"));
			processes.addAll(cluster.servers());
		}

		@Test
		@Order(3)
		void fails() {
			throw new AssertionError("failing on purpose");
		}

	}

	@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
	static class SentinelGroupLeftBroken {

		@RegisterExtension
		static final RedisSentinelGroupExtension extension = new RedisSentinelGroupExtension();

		static RedisServer killed;

		static RedisServer paused;

		@Test
		@Order(1)
		void breaksTheGroup() {
			RedisSentinelGroup group = extension.group();
			RedisServer master = group.master();
			master.command("SET", "left-behind", "v");
			killed = master;
			group.killMaster();
			paused = group.replicas().get(0);
			paused.pause();
		}

		@Test
		@Order(2)
		void findsItHealedAndEmpty() {
			RedisSentinelGroup group = extension.group();
			found.add("killed node running as a replica: "
					+ (killed.isRunning() && RedisCluster.role(killed).startsWith("slave")));
			found.add("paused node resumed: " + !paused.isPaused());
			found.add("replicas: " + group.replicas().size());
			found.add("key left by the first test: " + group.master().command("GET", "left-behind"));
			processes.addAll(group.servers());
			processes.addAll(group.sentinels());
		}

		@Test
		@Order(3)
		void fails() {
			throw new AssertionError("failing on purpose");
		}

	}

}

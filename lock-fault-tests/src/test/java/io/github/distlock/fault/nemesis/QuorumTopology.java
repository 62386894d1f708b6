package io.github.distlock.fault.nemesis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.github.distlock.fault.nemesis.Fault.Excuse;
import io.github.distlock.testsupport.RedisServer;
import io.github.distlock.testsupport.TcpProxy;

import static io.github.distlock.fault.nemesis.FaultAction.between;
import static io.github.distlock.fault.nemesis.FaultAction.hold;

/**
 * Five independent Redis masters with {@code appendfsync always}, each client reaching
 * each node through a {@link TcpProxy} of its own, for the {@code QuorumLockStore}.
 * Faults stay on at most two nodes at a time (a node restarted empty counts as faulty for
 * one fencing retention, as the quorum's fencing asks): nodes frozen, killed and
 * restarted with their data, killed and restarted empty after a lease (Redlock's delayed
 * restart), and one client cut off from one or two nodes, its bytes then dropped or
 * delivered late. These keep exclusion. A node restarted empty at once is the one fault
 * here that does not (a holder on a bare majority may lose it): it excuses overlaps in
 * its window.
 */
final class QuorumTopology implements NemesisTopology {

	static final int NODES = 5;

	private static final int MAX_FAULTY = 2;

	private final List<RedisServer> nodes = new ArrayList<>();

	/** {@code proxies.get(client).get(node)}. */
	private final List<List<TcpProxy>> proxies = new ArrayList<>();

	/** Per node, until when it counts as faulty after a restart without data. */
	private final long[] untrustedUntil = new long[NODES];

	private final Duration lease;

	private final Duration retention;

	QuorumTopology(int clients, Duration lease, Duration retention) {
		this.lease = lease;
		this.retention = retention;
		try {
			for (int i = 0; i < NODES; i++) {
				this.nodes.add(RedisServer.builder().persistence(true).start());
			}
			for (int c = 0; c < clients; c++) {
				this.proxies.add(this.nodes.stream().map(TcpProxy::to).toList());
			}
		}
		catch (RuntimeException ex) {
			close();
			throw ex;
		}
	}

	@Override
	public String name() {
		return "quorum of 5";
	}

	@Override
	public List<String> clientArgs(int index) {
		return List.of("--store=quorum",
				"--nodes=" + this.proxies.get(index)
					.stream()
					.map((proxy) -> proxy.host() + ":" + proxy.port())
					.collect(Collectors.joining(",")));
	}

	@Override
	public List<FaultAction> faults(ClientFaults clients) {
		return List.of(this::pauseNodes, this::restartWithData, this::restartEmptyDelayed, this::partitionClient,
				this::partitionClient, this::restartEmptyAtOnce);
	}

	private Fault pauseNodes(Random random) {
		List<Integer> targets = pick(random, 1 + random.nextInt(MAX_FAULTY));
		long start = System.nanoTime();
		try {
			targets.forEach((node) -> this.nodes.get(node).pause());
			hold(between(random, 300, 2500));
		}
		finally {
			targets.forEach((node) -> this.nodes.get(node).resume());
		}
		return new Fault("pause-node", "node " + targets, start, System.nanoTime(), Excuse.NONE);
	}

	private Fault restartWithData(Random random) {
		List<Integer> targets = pick(random, 1 + random.nextInt(MAX_FAULTY));
		long start = System.nanoTime();
		try {
			targets.forEach((node) -> this.nodes.get(node).kill());
			hold(between(random, 200, 2000));
		}
		finally {
			targets.forEach((node) -> this.nodes.get(node).restart());
		}
		return new Fault("kill-restart-with-data", "node " + targets, start, System.nanoTime(), Excuse.NONE);
	}

	/** Down for longer than any key it held could live: it forgets nothing alive. */
	private Fault restartEmptyDelayed(Random random) {
		List<Integer> targets = pick(random, 1);
		long start = System.nanoTime();
		try {
			targets.forEach((node) -> this.nodes.get(node).kill());
			hold(this.lease.toMillis() + between(random, 500, 1500));
		}
		finally {
			restartEmpty(targets);
		}
		return new Fault("kill-restart-empty-delayed", "node " + targets, start, System.nanoTime(), Excuse.NONE);
	}

	private Fault restartEmptyAtOnce(Random random) {
		List<Integer> targets = pick(random, 1);
		long start = System.nanoTime();
		targets.forEach((node) -> this.nodes.get(node).kill());
		restartEmpty(targets);
		return new Fault("kill-restart-empty", "node " + targets, start, System.nanoTime(), Excuse.LOCKS_LOST);
	}

	private void restartEmpty(List<Integer> targets) {
		for (int node : targets) {
			this.nodes.get(node).restartEmpty();
			this.untrustedUntil[node] = System.nanoTime() + this.retention.toNanos() + Duration.ofSeconds(1).toNanos();
		}
	}

	/**
	 * Holds every byte between one client and one or two nodes; then drops them (the
	 * connections are reset) or lets them through late, as a healed partition can.
	 */
	private Fault partitionClient(Random random) {
		int client = random.nextInt(this.proxies.size());
		List<Integer> targets = pick(random, 1 + random.nextInt(MAX_FAULTY));
		boolean drop = random.nextBoolean();
		long start = System.nanoTime();
		try {
			targets.forEach((node) -> this.proxies.get(client).get(node).blackHole());
			hold(between(random, 300, 3000));
		}
		finally {
			for (int node : targets) {
				TcpProxy proxy = this.proxies.get(client).get(node);
				if (drop) {
					proxy.resetConnections();
				}
				proxy.heal();
			}
		}
		return new Fault(drop ? "partition-drop" : "partition-late", "c" + client + " | node " + targets, start,
				System.nanoTime(), Excuse.NONE);
	}

	/**
	 * Up to {@code count} distinct nodes such that at most {@link #MAX_FAULTY} nodes are
	 * faulty with them, counting those still untrusted after a restart without data.
	 */
	private List<Integer> pick(Random random, int count) {
		long now = System.nanoTime();
		List<Integer> untrusted = IntStream.range(0, NODES)
			.filter((node) -> this.untrustedUntil[node] - now > 0)
			.boxed()
			.toList();
		List<Integer> candidates = new ArrayList<>(IntStream.range(0, NODES).boxed().toList());
		List<Integer> picked = new ArrayList<>();
		while (picked.size() < count && !candidates.isEmpty()) {
			int node = candidates.remove(random.nextInt(candidates.size()));
			long faulty = IntStream.range(0, NODES)
				.filter((n) -> untrusted.contains(n) || picked.contains(n) || n == node)
				.count();
			if (faulty <= MAX_FAULTY) {
				picked.add(node);
			}
		}
		picked.sort(null);
		return picked;
	}

	@Override
	public List<String> lockKeys() {
		List<String> keys = new ArrayList<>();
		for (RedisServer node : this.nodes) {
			keys.addAll(node.keys("distlock:{*}"));
		}
		return keys;
	}

	@Override
	public void close() {
		this.proxies.forEach((ofClient) -> ofClient.forEach(TcpProxy::close));
		for (RedisServer node : this.nodes) {
			try {
				node.resume();
			}
			catch (RuntimeException ex) {
				// closed below anyway
			}
			node.close();
		}
	}

}

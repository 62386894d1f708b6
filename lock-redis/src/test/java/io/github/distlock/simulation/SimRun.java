package io.github.distlock.simulation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import io.github.distlock.simulation.Instance.SimSetup;

/**
 * One world, run from one seed: the setup is drawn (one node or a quorum of three,
 * instances, threads, lock ids, leases, timeouts), instances run the {@link Workload}
 * while the {@link Nemesis} injects faults, then a calm stretch, then every instance
 * shuts down and nothing may be held any more. The {@link Observations} and the
 * {@link Monitor} check it all along.
 */
final class SimRun {

	/** Liveness bound of calm stretches. */
	static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(3);

	private static final long WORKLOAD_NANOS = TimeUnit.SECONDS.toNanos(24);

	/**
	 * After a fault, the world counts as calm once what it left has run out: the queue
	 * entry of a crashed waiter (a wait of up to 5 s), then a grant to it (a lease of up
	 * to 6 s, with the quorum's drift allowance), less the bound of the checks.
	 */
	private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(9);

	private final long seed;

	private final Trace trace;

	private final boolean multiKey;

	private final boolean shared;

	private SimRun(long seed, Trace trace, boolean multiKey, boolean shared) {
		this.seed = seed;
		this.trace = trace;
		this.multiKey = multiKey;
		this.shared = shared;
	}

	/**
	 * Runs the world of {@code seed}.
	 * @param keepTrace how many trace lines to keep
	 * @return what happened
	 */
	static Result run(long seed, int keepTrace) {
		return run(seed, keepTrace, false);
	}

	/**
	 * Runs the world of {@code seed}, its threads also taking several locks at once
	 * ({@code tryLockAll}) when {@code multiKey}: a seed space of its own, as the extra
	 * choices change every world.
	 * @param keepTrace how many trace lines to keep
	 * @param multiKey whether the workload takes several lock ids at once too
	 * @return what happened
	 */
	static Result run(long seed, int keepTrace, boolean multiKey) {
		return QuietLogs.during(() -> new SimRun(seed, new Trace(keepTrace), multiKey, false).run());
	}

	/**
	 * Runs the world of {@code seed} with shared holds: on one node (the quorum has
	 * none), the id {@code r} held READ or WRITE, the id {@code s} held as one of 2
	 * permits or WRITE. A seed space of its own.
	 * @param keepTrace how many trace lines to keep
	 * @return what happened
	 */
	static Result runShared(long seed, int keepTrace) {
		return QuietLogs.during(() -> new SimRun(seed, new Trace(keepTrace), false, true).run());
	}

	private Result run() {
		Simulation world = new Simulation(this.seed, this.trace, WORKLOAD_NANOS + TimeUnit.SECONDS.toNanos(60));
		this.trace.clock(world::now);
		Random random = world.random();
		int nodeCount = (random.nextInt(10) < 7 || this.shared) ? 1 : 3;
		SimSetup setup = new SimSetup(nodeCount, Duration.ofMillis(1000 + random.nextInt(5000)), Duration.ofSeconds(1),
				random.nextBoolean() ? Duration.ofMillis(300) : Duration.ofSeconds(1));
		int instanceCount = 2 + random.nextInt(2);
		int threadsPerInstance = 1 + random.nextInt(3);
		List<String> singleKeyIds = (random.nextInt(3) == 0) ? List.of("a", "b") : List.of("a");
		Map<String, Integer> sharedIds = this.shared ? Map.of("r", 0, "s", 2) : Map.of();
		List<String> lockIds = this.multiKey ? List.of("a", "b", "c") : this.shared ? List.of("r", "s") : singleKeyIds;
		boolean faulty = random.nextInt(5) != 0;
		// Half the worlds (of every seed space) also reach what issue 39 found
		// unreached (leases extended across the batching threshold, holds kept past
		// them, renewal threads preempted),
		// drawn apart from the world's own choices: the other half are the worlds
		// of before, seed for seed, with every check of now.
		// (A SplittableRandom: the first draw of java.util.Random barely varies between
		// neighbouring seeds.)
		long apart = new SplittableRandom(this.seed).nextLong();
		boolean reach = (apart & 1) == 0;
		String description = "seed " + this.seed + ": " + ((nodeCount == 1) ? "one node" : "quorum of 3") + ", "
				+ instanceCount + " instances x " + threadsPerInstance + " threads, lock ids " + lockIds + ", lease "
				+ setup.leaseTime().toMillis() + " ms, node timeout " + setup.nodeTimeout().toMillis() + " ms, "
				+ (faulty ? "with faults" : "no faults (interrupts and graceful restarts only)")
				+ (reach ? ", reach (extends across the batching threshold, long holds, preempted renewals)" : "")
				+ (this.multiKey ? ", multi-key" : "")
				+ (this.shared ? ", shared: r READ/WRITE, s 2 permits/WRITE" : "");
		this.trace.log("world", description);

		Network network = new Network(world);
		List<Node> nodes = new ArrayList<>();
		for (int i = 0; i < nodeCount; i++) {
			long skew = (nodeCount > 1) ? TimeUnit.MILLISECONDS.toNanos(random.nextInt(200)) : 0;
			nodes.add(new Node("node" + i, world, Duration.ofMinutes(1), skew));
		}
		SimRuntime runtime = new SimRuntime(world, reach ? new Random(apart) : null);
		Owners owners = new Owners();
		Faults faults = new Faults(world, SETTLE_NANOS);
		Truth truth = new Truth(nodes);
		Observations observations = new Observations(world, owners, truth, faults);
		Waiting waiting = new Waiting();
		long end = Simulation.START_NANOS + WORKLOAD_NANOS;
		long slack = TimeUnit.SECONDS.toNanos(3) + 4 * setup.commandTimeout().toNanos();
		observations.shared(sharedIds, BOUND_NANOS);
		Workload workload = new Workload(world, owners, observations, waiting, lockIds, nodeCount == 1, slack,
				this.multiKey, sharedIds, reach);
		Instances[] instances = new Instances[1];
		instances[0] = new Instances(world, (process) -> {
			Instance instance = Instance.start(process, setup, world, network, nodes, owners, runtime, observations);
			for (int t = 0; t < threadsPerInstance; t++) {
				world.start("t" + t, process, () -> workload.run(instance, end));
			}
			return instance;
		});
		Monitor monitor = new Monitor(world, truth, owners, waiting, faults, observations, lockIds, BOUND_NANOS);
		SimProcess driver = new SimProcess("driver");
		String ended = world.run(driver, () -> {
			for (int i = 0; i < instanceCount; i++) {
				instances[0].startOne();
			}
			monitor.start();
			// Without faults, the nemesis still interrupts waiters and restarts instances
			// gracefully: nothing it does may leave a lock held up.
			// With faults, two streams of them: faults overlap (two nodes of a quorum
			// down
			// at once, a pause during a partition).
			SimProcess nemesis = new SimProcess("nemesis");
			Set<Node> busy = new HashSet<>();
			for (int stream = 0; stream < (faulty ? 2 : 1); stream++) {
				world.start("nemesis" + stream, nemesis,
						() -> new Nemesis(world, network, nodes, instances[0], waiting, faults, busy)
							.run(faulty ? end - SETTLE_NANOS - BOUND_NANOS : end - BOUND_NANOS, faulty));
			}
			parkUntil(world, end + TimeUnit.SECONDS.toNanos(10));
			monitor.stop();
			instances[0].shutDownAll();
			parkUntil(world, world.now() + BOUND_NANOS);
			// On every node, not only on a majority: a minority left behind (a quorum
			// attempt never withdrawn) is left over too.
			for (Node node : nodes) {
				for (String lockId : lockIds) {
					node.store()
						.holderOf(lockId)
						.ifPresent((holder) -> observations
							.violation("'" + lockId + "' is still held on " + node + " for " + holder + " (of "
									+ owners.processOf(holder) + ") after every instance shut down"));
					Set<String> left = node.store().sharedHoldersOf(lockId);
					if (!left.isEmpty()) {
						observations.violation("'" + lockId + "' is still held shared on " + node + " for " + left
								+ " after every instance shut down");
					}
				}
			}
			world.stop("done");
		}, 60, TimeUnit.SECONDS);
		observations.counts().put("turns", world.turns());
		observations.counts().put("threads", (long) world.threadCount());
		List<String> violations = new ArrayList<>(observations.violations());
		this.trace.failures().forEach((failure) -> violations.add("a simulated thread failed: " + failure));
		if (!ended.equals("done")) {
			violations.add("the world ended before its workload did: " + ended);
		}
		return new Result(this.seed, description, violations, observations.counts(), this.trace,
				world.now() - Simulation.START_NANOS);
	}

	private static void parkUntil(Simulation world, long until) {
		while (world.now() < until) {
			world.park(until - world.now());
		}
	}

	/**
	 * What one world came to.
	 *
	 * @param seed its seed
	 * @param description its setup
	 * @param violations what the checks found; empty for a correct run
	 * @param counts what happened, counted
	 * @param trace its trace
	 * @param virtualNanos how long it ran in virtual time
	 */
	record Result(long seed, String description, List<String> violations, Map<String, Long> counts, Trace trace,
			long virtualNanos) {

		boolean passed() {
			return this.violations.isEmpty();
		}

	}

}

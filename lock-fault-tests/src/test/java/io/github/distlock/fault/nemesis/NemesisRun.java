package io.github.distlock.fault.nemesis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import io.github.distlock.fault.nemesis.HistoryChecker.Verdict;
import io.github.distlock.testsupport.ClientJvm;
import io.github.distlock.testsupport.FencedResource;
import io.github.distlock.testsupport.RedisServer;

import static io.github.distlock.fault.nemesis.FaultAction.between;
import static io.github.distlock.fault.nemesis.FaultAction.hold;
import static org.awaitility.Awaitility.await;

/**
 * One nemesis run on a topology: starts the fenced resource and the client JVMs, lets
 * them work while the nemesis injects faults chosen by the seed, heals everything,
 * demands liveness (every client acquires within {@link #LIVENESS_BOUND} of the heal,
 * nothing is left held) and hands the history to the {@link HistoryChecker}. Every
 * process it starts is stopped, whatever happens.
 */
final class NemesisRun {

	/** How soon after the heal every client must have acquired a lock again. */
	static final Duration LIVENESS_BOUND = Duration.ofSeconds(30);

	/** Small heap, quick start: C1 only, no perf data file. */
	private static final String[] JVM_ARGS = { "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
			"-XX:-UsePerfData", "-Djava.net.preferIPv4Stack=true" };

	private final NemesisSettings settings;

	private final List<Fault> faults = new ArrayList<>();

	private final List<String> livenessViolations = new ArrayList<>();

	private long originNanos;

	NemesisRun(NemesisSettings settings) {
		this.settings = settings;
	}

	NemesisResult run(NemesisTopology topology) {
		List<ClientJvm> clients = new ArrayList<>();
		List<ClockJumps> clocks = new ArrayList<>();
		try (RedisServer fence = RedisServer.start()) {
			for (int i = 0; i < this.settings.clients(); i++) {
				ClockJumps clock = ClockJumps.available() ? ClockJumps.create() : null;
				if (clock != null) {
					clocks.add(clock);
				}
				clients.add(startClient(i, topology, fence, clock));
			}
			clients.forEach((client) -> client.awaitLine("READY"::equals, Duration.ofSeconds(120)));
			this.originNanos = System.nanoTime();
			clients.forEach((client) -> client.send("go"));
			ClientFaults clientFaults = new ClientFaults(clients, clocks, this.settings.lease(),
					this.settings.renewalStall());
			List<FaultAction> actions = new ArrayList<>(topology.faults(clientFaults));
			actions.addAll(clientFaults.faults());
			try {
				injectFaults(actions);
			}
			catch (RuntimeException ex) {
				throw new IllegalStateException("The nemesis failed (replay with -Dnemesis.seed=" + this.settings.seed()
						+ "); faults so far:\n" + describeFaults(), ex);
			}
			long healedAt = System.nanoTime();
			awaitLiveness(clients, topology, healedAt);
			List<Op> ops = new ArrayList<>();
			List<SharedOp> shared = new ArrayList<>();
			List<LossSignal> signals = new ArrayList<>();
			long failedAcquires = 0;
			for (ClientJvm client : clients) {
				for (String line : client.lines()) {
					if (Op.isOp(line)) {
						ops.add(Op.parse(line));
					}
					else if (SharedOp.isSharedOp(line)) {
						shared.add(SharedOp.parse(line));
					}
					else if (LossSignal.isLossSignal(line)) {
						signals.add(LossSignal.parse(line));
					}
					else if (line.startsWith("FAIL ")) {
						failedAcquires++;
					}
				}
			}
			Verdict verdict = HistoryChecker.check(ops, shared, signals, this.faults, registers(fence),
					new HistoryChecker.Windows(this.settings.lease().plusSeconds(2).toNanos(),
							this.settings.signalSlack().toNanos()));
			verdict.violations.addAll(0, this.livenessViolations);
			return new NemesisResult(topology.name(), this.settings.seed(), healedAt - this.originNanos,
					List.copyOf(this.faults), verdict, failedAcquires, worstUnavailability(ops, healedAt),
					describeFaults());
		}
		finally {
			clients.forEach(ClientJvm::close);
			clocks.forEach(ClockJumps::delete);
		}
	}

	private ClientJvm startClient(int index, NemesisTopology topology, RedisServer fence, ClockJumps clock) {
		List<String> args = new ArrayList<>(List.of("--name=c" + index, "--fence=" + fence.port(),
				"--lease=" + this.settings.lease().toMillis(), "--timeout=" + this.settings.timeout().toMillis(),
				"--wait=" + this.settings.waitTime().toMillis(), "--retention=" + this.settings.retention().toMillis(),
				"--threads=" + this.settings.threads(), "--ids=" + this.settings.ids(),
				"--long-ids=" + this.settings.longIds(), "--long-lease=" + this.settings.longLease().toMillis(),
				"--renewal-stall=" + this.settings.renewalStall().toMillis()));
		args.addAll(topology.clientArgs(index));
		ClientJvm.Builder builder = ClientJvm.builder(NemesisClient.class).name("c" + index).jvmArgs(JVM_ARGS);
		if (clock != null) {
			clock.environment().forEach(builder::environment);
		}
		return builder.args(args.toArray(String[]::new)).start();
	}

	private void injectFaults(List<FaultAction> actions) {
		Random random = new Random(this.settings.seed());
		long deadline = this.originNanos + this.settings.duration().toNanos();
		while (System.nanoTime() - deadline < 0) {
			hold(between(random, 200, 1000));
			Fault fault = actions.get(random.nextInt(actions.size())).inject(random);
			this.faults.add(fault);
			System.out.println("nemesis: " + fault.describe(this.originNanos));
		}
	}

	/**
	 * Every client acquires again within the bound after the heal; then they stop, their
	 * bookkeeping is empty and no lock key is left once a lease has passed.
	 */
	private void awaitLiveness(List<ClientJvm> clients, NemesisTopology topology, long healedAt) {
		for (ClientJvm client : clients) {
			try {
				client.awaitLine((line) -> Op.isOp(line) && Op.parse(line).acquiredNanos() - healedAt > 0,
						LIVENESS_BOUND.minusNanos(System.nanoTime() - healedAt));
			}
			catch (IllegalStateException ex) {
				this.livenessViolations.add("liveness: " + client.name() + " did not acquire within "
						+ LIVENESS_BOUND.toSeconds() + " s of the heal");
			}
		}
		clients.forEach((client) -> client.send("stop"));
		for (ClientJvm client : clients) {
			String done = client.awaitLine((line) -> line.startsWith("DONE"), Duration.ofSeconds(60));
			if (!done.equals("DONE tracked=0 held=0")) {
				this.livenessViolations.add("liveness: " + client.name() + " ended with " + done);
			}
			int exit = client.awaitExit(Duration.ofSeconds(30));
			if (exit != 0) {
				this.livenessViolations.add(client.name() + " exited with " + exit + client.stderrTail());
			}
		}
		try {
			await().atMost(this.settings.lease().plusSeconds(10)).until(() -> topology.lockKeys().isEmpty());
		}
		catch (RuntimeException ex) {
			this.livenessViolations.add("liveness: lock keys left after the clients stopped: " + topology.lockKeys());
		}
	}

	private Map<String, long[]> registers(RedisServer fence) {
		Map<String, long[]> registers = new TreeMap<>();
		try (FencedResource resource = FencedResource.connect(fence)) {
			for (String name : this.settings.registers()) {
				String value = resource.value(name);
				registers.put(name,
						new long[] { (value != null) ? Long.parseLong(value) : 0, resource.accepted(name) });
			}
		}
		return registers;
	}

	/**
	 * The longest time between the start (or an acquisition) and the next acquisition of
	 * any client, up to the heal: clients always want a lock, so this is the longest time
	 * none could get one.
	 */
	private long worstUnavailability(List<Op> ops, long healedAt) {
		List<Long> starts = ops.stream().map(Op::acquiredNanos).sorted().toList();
		long worst = 0;
		long previous = this.originNanos;
		for (long start : starts) {
			if (start - healedAt > 0) {
				worst = Math.max(worst, start - previous);
				break;
			}
			worst = Math.max(worst, start - previous);
			previous = start;
		}
		return Duration.ofNanos(worst).toMillis();
	}

	private String describeFaults() {
		StringBuilder history = new StringBuilder();
		this.faults.forEach((fault) -> history.append(fault.describe(this.originNanos)).append('\n'));
		return history.toString();
	}

}

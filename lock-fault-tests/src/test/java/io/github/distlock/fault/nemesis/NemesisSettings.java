package io.github.distlock.fault.nemesis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What a nemesis run does: its seed (which decides every fault, target and duration the
 * nemesis picks; the clients' interleaving is the machine's), how long the nemesis
 * injects faults, and the clients' workload and lock settings.
 *
 * @param seed the nemesis's random seed
 * @param duration how long faults are injected
 * @param clients client JVMs
 * @param threads worker threads per client
 * @param ids lock ids, each guarding one fenced register
 * @param lease lease of the locks
 * @param timeout Redis command timeout (and the quorum's node timeout)
 * @param waitTime how long an acquisition waits before it fails
 * @param retention fencing retention (also how long a quorum node restarted empty does
 * not count for fencing)
 * @param longIds lock ids of the long holds ({@link LongHold}), each guarding one fenced
 * register too; one thread per client holds them
 * @param longLease the long holds' lease (over 3 s: renewed in batches)
 * @param renewalStall how long every clock read of the clients' renewal threads stalls
 * for the whole run ({@link RenewalStalls}); zero for none (the nemesis's
 * {@code slow-renewals} fault still stalls them for a while)
 * @param signalSlack how long after the engine must have known of a loss its listener may
 * still be called ({@link LossSignalChecker})
 */
record NemesisSettings(long seed, Duration duration, int clients, int threads, int ids, Duration lease,
		Duration timeout, Duration waitTime, Duration retention, int longIds, Duration longLease, Duration renewalStall,
		Duration signalSlack) {

	/**
	 * Settings from the system properties {@code nemesis.seed} (random if absent),
	 * {@code nemesis.duration} (an ISO-8601 duration, e.g. {@code PT10M};
	 * {@code shortRun} if absent) and {@code nemesis.renewalStall} (ms; 0 if absent).
	 */
	static NemesisSettings fromSystemProperties(Duration shortRun) {
		String seed = System.getProperty("nemesis.seed");
		String duration = System.getProperty("nemesis.duration");
		return new NemesisSettings((seed != null) ? Long.parseLong(seed) : System.nanoTime(),
				(duration != null) ? Duration.parse(duration) : shortRun, 3, 2, 3, Duration.ofSeconds(3),
				Duration.ofMillis(500), Duration.ofSeconds(8), Duration.ofSeconds(5), 2, Duration.ofMillis(4500),
				Duration.ofMillis(Long.getLong("nemesis.renewalStall", 0)), Duration.ofMillis(1500));
	}

	/** The fenced registers: one per id, of the short and the long holds. */
	List<String> registers() {
		List<String> registers = new ArrayList<>();
		for (int id = 0; id < this.ids; id++) {
			registers.add("register-" + id);
		}
		for (int id = 0; id < this.longIds; id++) {
			registers.add("long-" + id);
		}
		return registers;
	}

}

package io.github.distlock.fault.nemesis;

import java.time.Duration;

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
 */
record NemesisSettings(long seed, Duration duration, int clients, int threads, int ids, Duration lease,
		Duration timeout, Duration waitTime, Duration retention) {

	/**
	 * Settings from the system properties {@code nemesis.seed} (random if absent) and
	 * {@code nemesis.duration} (an ISO-8601 duration, e.g. {@code PT10M};
	 * {@code shortRun} if absent).
	 */
	static NemesisSettings fromSystemProperties(Duration shortRun) {
		String seed = System.getProperty("nemesis.seed");
		String duration = System.getProperty("nemesis.duration");
		return new NemesisSettings((seed != null) ? Long.parseLong(seed) : System.nanoTime(),
				(duration != null) ? Duration.parse(duration) : shortRun, 3, 2, 3, Duration.ofSeconds(3),
				Duration.ofMillis(500), Duration.ofSeconds(8), Duration.ofSeconds(5));
	}

}

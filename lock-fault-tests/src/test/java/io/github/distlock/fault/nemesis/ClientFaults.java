package io.github.distlock.fault.nemesis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.github.distlock.fault.nemesis.Fault.Excuse;
import io.github.distlock.testsupport.ClientJvm;

import static io.github.distlock.fault.nemesis.FaultAction.between;
import static io.github.distlock.fault.nemesis.FaultAction.hold;

/**
 * Faults of the client JVMs, the same on every topology: a client frozen (SIGSTOP) for
 * less than a quarter of its lease, which every topology survives; frozen past its lease,
 * after which a hold spanning the pause may overlap the next one (a lease cannot stop a
 * frozen holder, only the fence stops its write); every client's renewal threads slowed
 * for a few seconds ({@link RenewalStalls}), which must change nothing a holder sees; and
 * its wall clock jumped by up to an hour either way with libfaketime, which the lock must
 * not notice (when {@link ClockJumps#available()}).
 */
final class ClientFaults {

	private static final Duration STALL_WAIT = Duration.ofSeconds(5);

	private final List<ClientJvm> clients;

	private final List<ClockJumps> clocks;

	private final Duration lease;

	private final Duration renewalStall;

	/**
	 * @param clocks the clock of each client, or empty when libfaketime is not installed
	 * @param renewalStall the stall of the renewal threads outside the
	 * {@code slow-renewals} fault
	 */
	ClientFaults(List<ClientJvm> clients, List<ClockJumps> clocks, Duration lease, Duration renewalStall) {
		this.clients = clients;
		this.clocks = clocks;
		this.lease = lease;
		this.renewalStall = renewalStall;
	}

	List<FaultAction> faults() {
		List<FaultAction> faults = new ArrayList<>(
				List.of(this::pauseBriefly, this::pausePastLease, this::slowRenewals));
		if (!this.clocks.isEmpty()) {
			faults.add(this::jumpClock);
		}
		return faults;
	}

	private Fault pauseBriefly(Random random) {
		return pause(random, "pause-client", between(random, 100, this.lease.toMillis() / 4), false, Excuse.NONE);
	}

	/**
	 * Freezes a client while one of its threads holds a lock between its read and its
	 * write (asked with {@code stall}), if one does so within a few seconds; otherwise
	 * wherever it is.
	 */
	private Fault pausePastLease(Random random) {
		return pause(random, "pause-holder-past-lease", this.lease.toMillis() + between(random, 500, 2000), true,
				Excuse.CLIENT_STOPPED);
	}

	private Fault pause(Random random, String kind, long millis, boolean inCriticalSection, Excuse excuse) {
		int index = random.nextInt(this.clients.size());
		ClientJvm client = this.clients.get(index);
		if (inCriticalSection) {
			stallHolder(client, Duration.ofMillis(300));
		}
		long start = System.nanoTime();
		try {
			client.pause();
			hold(millis);
		}
		finally {
			client.resume();
		}
		return new Fault(kind, "c" + index, start, System.nanoTime(), excuse);
	}

	/**
	 * Makes one holder of a random client think {@code think} between its read and its
	 * write, and returns once it does (or after a few seconds, if no thread of that
	 * client gets a lock): what a fault injected now does to a holder in its critical
	 * section.
	 */
	void stallHolder(Random random, Duration think) {
		stallHolder(this.clients.get(random.nextInt(this.clients.size())), think);
	}

	private static void stallHolder(ClientJvm client, Duration think) {
		int from = client.lines().size();
		client.send("stall " + think.toMillis());
		try {
			client.awaitLine(from, (line) -> line.startsWith("STALLED "), STALL_WAIT);
		}
		catch (IllegalStateException ex) {
			// No thread of it got a lock in time: the fault hits it wherever it is.
		}
	}

	/**
	 * Every client's renewal threads stall 30-100 ms at each clock read, for 2-6 s: a
	 * renewal takes a few hundred ms longer, still far inside a lease, so exclusion and
	 * every loss signal are still promised.
	 */
	private Fault slowRenewals(Random random) {
		long stall = between(random, 30, 100);
		long start = System.nanoTime();
		try {
			this.clients.forEach((client) -> client.send("renewal-stall " + stall));
			hold(between(random, 2000, 6000));
		}
		finally {
			this.clients.forEach((client) -> client.send("renewal-stall " + this.renewalStall.toMillis()));
		}
		return new Fault("slow-renewals", "all " + stall + " ms", start, System.nanoTime(), Excuse.NONE);
	}

	private Fault jumpClock(Random random) {
		int index = random.nextInt(this.clients.size());
		long seconds = between(random, 60, 3600) * (random.nextBoolean() ? 1 : -1);
		long start = System.nanoTime();
		this.clocks.get(index).jump(Duration.ofSeconds(seconds));
		return new Fault("client-clock-jump", "c" + index + " " + ((seconds > 0) ? "+" : "") + seconds + "s", start,
				System.nanoTime(), Excuse.NONE);
	}

}

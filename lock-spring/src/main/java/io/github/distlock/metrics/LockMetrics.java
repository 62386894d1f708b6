package io.github.distlock.metrics;

import io.github.distlock.LockInspection;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The meters of a lock service ({@link LockInspection}) that no observation yields: locks
 * held now, locks lost, failed renewals and acquisitions too few replicas acknowledged.
 * None is tagged per lock, so their number never grows.
 */
public class LockMetrics implements MeterBinder {

	/** Gauge: locks this instance holds now. */
	public static final String LOCKS_HELD = "distlock.locks.held";

	/**
	 * Counter: locks this instance found lost (renewal, extend or release found them
	 * expired or taken).
	 */
	public static final String LOCKS_LOST = "distlock.locks.lost";

	/**
	 * Counter: renewal attempts that failed (Redis unreachable or slow); retried until
	 * the lease ends.
	 */
	public static final String RENEWAL_FAILURES = "distlock.renewal.failures";

	/**
	 * Counter: acquisitions and hand-overs that too few replicas acknowledged within the
	 * replication timeout ({@code distributed-lock.replication.min-replicas}); each was
	 * undone and failed.
	 */
	public static final String REPLICATION_FAILURES = "distlock.replication.failures";

	private final LockInspection lockService;

	public LockMetrics(LockInspection lockService) {
		this.lockService = lockService;
	}

	// No base units: Prometheus would append them to the names
	// (distlock_locks_held_locks).
	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder(LOCKS_HELD, this.lockService, (service) -> service.heldLocks().size())
			.description("Distributed locks this instance holds now")
			.register(registry);
		FunctionCounter.builder(LOCKS_LOST, this.lockService, LockInspection::locksLost)
			.description("Distributed locks this instance lost before releasing them")
			.register(registry);
		FunctionCounter.builder(RENEWAL_FAILURES, this.lockService, LockInspection::renewalFailures)
			.description("Failed lease renewals of distributed locks")
			.register(registry);
		FunctionCounter.builder(REPLICATION_FAILURES, this.lockService, LockInspection::replicationFailures)
			.description("Distributed lock acquisitions undone because too few replicas acknowledged them")
			.register(registry);
	}

}

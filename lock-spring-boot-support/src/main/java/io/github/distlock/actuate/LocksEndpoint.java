package io.github.distlock.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import io.github.distlock.HeldLockInfo;
import io.github.distlock.LockInspection;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;

/**
 * {@code /actuator/locks}: the locks this instance holds (a row per hold, saying its
 * mode: exclusive, READ or a permit), and {@code /actuator/locks/{lockId}}: whether
 * anyone, on any instance, holds a lock id and how long its lease still runs. Read-only.
 * <p>
 * The list is this instance's memory (no Redis call); the lookup is one Redis round trip
 * ({@code PTTL}), never a {@code SCAN}. Lock ids containing {@code /} work, as the rest
 * of the path is the id.
 */
@Endpoint(id = "locks")
public class LocksEndpoint {

	private final LockInspection lockService;

	public LocksEndpoint(LockInspection lockService) {
		this.lockService = lockService;
	}

	/**
	 * The locks this instance holds now.
	 * @return one descriptor per hold: per exclusive lock, per thread's READ hold, per
	 * permit
	 */
	@ReadOperation
	public HeldLocksDescriptor locks() {
		List<HeldLockInfo> held = this.lockService.heldLocks();
		Map<String, Long> permitsHeld = permitsHeld(held);
		return new HeldLocksDescriptor(held.stream().map((hold) -> HeldLockDescriptor.of(hold, permitsHeld)).toList());
	}

	/**
	 * Whether anyone holds {@code lockId}.
	 * @param lockId the lock id, as path segments
	 * @return the state of the lock in Redis, and this instance's hold if it has one
	 */
	@ReadOperation
	public LockDescriptor lock(@Selector(match = Match.ALL_REMAINING) String[] lockId) {
		String id = String.join("/", lockId);
		Optional<Duration> remaining = this.lockService.remainingLease(id);
		List<HeldLockInfo> held = this.lockService.heldLocks();
		HeldLockDescriptor local = held.stream()
			.filter((hold) -> hold.lockId().equals(id))
			.findFirst()
			.map((hold) -> HeldLockDescriptor.of(hold, permitsHeld(held)))
			.orElse(null);
		return new LockDescriptor(id, remaining.isPresent(), remaining.map(Duration::toMillis).orElse(null), local);
	}

	/** How many permits of each id these holds are. */
	private static Map<String, Long> permitsHeld(List<HeldLockInfo> held) {
		return held.stream()
			.filter((hold) -> hold.mode() == HeldLockInfo.Mode.PERMITS)
			.collect(Collectors.groupingBy(HeldLockInfo::lockId, Collectors.counting()));
	}

	/**
	 * The locks held by this instance.
	 *
	 * @param locks one entry per hold: per exclusive lock, per thread's READ hold, per
	 * permit
	 */
	public record HeldLocksDescriptor(List<HeldLockDescriptor> locks) implements OperationResponseBody {

	}

	/**
	 * One hold of a lock by this instance.
	 *
	 * @param name the {@code @DistributedLock} name, {@code null} for programmatic locks
	 * @param lockId the lock id
	 * @param mode {@code EXCLUSIVE}, {@code READ} or {@code PERMITS}
	 * @param permits for {@code PERMITS}, the number of permits of the id, else
	 * {@code null}
	 * @param permitsHeldByThisInstance for {@code PERMITS}, how many of them this
	 * instance holds now (one row each), else {@code null}
	 * @param fencingToken the fencing token of the hold
	 * @param heldSince when this instance acquired it
	 * @param leaseRemainingMillis how long the lease still runs unless renewed, by this
	 * instance's clock
	 * @param reentrancyDepth nested holds of the owner thread (1 if not re-entered)
	 * @param autoRenewed whether the watchdog renews the lease
	 * @param renewalFailing whether the last renewal attempt failed
	 */
	public record HeldLockDescriptor(@Nullable String name, String lockId, String mode, @Nullable Integer permits,
			@Nullable Integer permitsHeldByThisInstance, long fencingToken, Instant heldSince,
			long leaseRemainingMillis, int reentrancyDepth, boolean autoRenewed,
			boolean renewalFailing) implements OperationResponseBody {

		static HeldLockDescriptor of(HeldLockInfo held, Map<String, Long> permitsHeld) {
			boolean permits = held.mode() == HeldLockInfo.Mode.PERMITS;
			Long inUse = permitsHeld.get(held.lockId());
			return new HeldLockDescriptor(held.name(), held.lockId(), held.mode().name(),
					permits ? held.permits() : null, (permits && inUse != null) ? inUse.intValue() : null,
					held.fencingToken(), held.heldSince(), Math.max(held.leaseRemaining().toMillis(), 0), held.depth(),
					held.autoRenewed(), held.renewalFailing());
		}

	}

	/**
	 * The state of one lock id in Redis.
	 *
	 * @param lockId the lock id
	 * @param locked whether anyone, on any instance, holds it now
	 * @param leaseRemainingMillis how long the holder's lease still runs (Redis
	 * {@code PTTL}), or {@code null} if not locked
	 * @param heldByThisInstance this instance's hold, or {@code null} if it holds none
	 */
	public record LockDescriptor(String lockId, boolean locked, @Nullable Long leaseRemainingMillis,
			@Nullable HeldLockDescriptor heldByThisInstance) implements OperationResponseBody {

	}

}

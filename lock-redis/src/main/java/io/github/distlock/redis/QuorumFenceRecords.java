package io.github.distlock.redis;

/**
 * One node's part in the fencing records of a {@link QuorumLockStore} (see
 * {@link QuorumFence}): it raises its record of a lock's last fencing token to a
 * proposal, keeping it for the fencing retention, raises its own store's fencing token to
 * it too (so that its next acquisition continues above it), and answers the record it had
 * before and whether it has kept its data for the fencing retention. Atomic per key; a
 * Redis node runs one script ({@link RedisQuorumFenceRecords}).
 */
public interface QuorumFenceRecords {

	/**
	 * Raises the record of {@code key} to {@code proposal}, if lower.
	 * @param key the lock's key
	 * @param proposal the proposed fencing token
	 * @return the record before, and whether the node is trusted
	 * @throws RuntimeException when the node cannot be asked (as the node's store would
	 * fail)
	 */
	Recorded record(String key, long proposal);

	/**
	 * A node's answer.
	 *
	 * @param before its record before (0 if none)
	 * @param trusted whether it kept its data for the fencing retention
	 */
	record Recorded(long before, boolean trusted) {
	}

}

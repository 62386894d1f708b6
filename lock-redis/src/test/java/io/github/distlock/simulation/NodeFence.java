package io.github.distlock.simulation;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.github.distlock.redis.QuorumFenceRecords.Recorded;

/**
 * A node's fencing records for the quorum, as the Redis script keeps them
 * ({@code RedisQuorumFenceRecords}): per key the last recorded token for the fencing
 * retention, and the time of the node's first use, after which it is trusted once one
 * retention has passed (a node restarted empty starts over).
 */
final class NodeFence {

	private final Clock clock;

	private final long retentionMillis;

	private final Map<String, long[]> records = new HashMap<>();

	private long sinceMillis = -1;

	NodeFence(Clock clock, Duration retention) {
		this.clock = clock;
		this.retentionMillis = retention.toMillis();
	}

	Recorded record(String key, long proposal) {
		long now = this.clock.millis();
		if (this.sinceMillis < 0) {
			this.sinceMillis = now;
		}
		boolean trusted = now - this.sinceMillis >= this.retentionMillis;
		long[] record = this.records.get(key);
		long before = (record != null && record[1] > now) ? record[0] : 0;
		this.records.put(key, new long[] { Math.max(before, proposal), now + this.retentionMillis });
		return new Recorded(before, trusted);
	}

}

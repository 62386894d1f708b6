package io.github.distlock.testsupport;

import java.util.ArrayList;
import java.util.List;

/**
 * One slot on its way from one master to another, begun by
 * {@link RedisCluster#beginSlotMigration}: the source has it {@code MIGRATING}, the
 * target {@code IMPORTING}. Meanwhile a client asking the source for a key it no longer
 * (or never) had gets {@code -ASK} to the target; keys still on the source are served
 * there. {@link #moveKeys()} moves what is on the source with {@code MIGRATE};
 * {@link #finish()} hands the slot over for good with {@code SETSLOT NODE}.
 */
public final class ClusterSlotMigration {

	private static final int KEYS_PER_BATCH = 100;

	private static final String MIGRATE_TIMEOUT_MILLIS = "5000";

	private final RedisCluster cluster;

	private final int slot;

	private final RedisServer from;

	private final RedisServer to;

	private boolean finished;

	private ClusterSlotMigration(RedisCluster cluster, int slot, RedisServer from, RedisServer to) {
		this.cluster = cluster;
		this.slot = slot;
		this.from = from;
		this.to = to;
	}

	static ClusterSlotMigration begin(RedisCluster cluster, int slot, RedisServer from, RedisServer to) {
		// Target first, as redis-cli does: once the source redirects with ASK, the target
		// must accept.
		to.command("CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", cluster.nodeId(from));
		from.command("CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", cluster.nodeId(to));
		return new ClusterSlotMigration(cluster, slot, from, to);
	}

	public int slot() {
		return slot;
	}

	public RedisServer from() {
		return from;
	}

	public RedisServer to() {
		return to;
	}

	/**
	 * Moves every key now in the slot on the source to the target ({@code GETKEYSINSLOT},
	 * then {@code MIGRATE ... KEYS}, which keeps their time to live), and returns how
	 * many it moved. A key the target already holds is an error ({@code BUSYKEY}), not
	 * overwritten.
	 */
	public synchronized int moveKeys() {
		requireUnfinished();
		int moved = 0;
		while (true) {
			List<String> keys = from
				.command("CLUSTER", "GETKEYSINSLOT", Integer.toString(slot), Integer.toString(KEYS_PER_BATCH))
				.lines()
				.toList();
			if (keys.isEmpty()) {
				return moved;
			}
			List<String> migrate = new ArrayList<>(List.of("MIGRATE", to.host(), Integer.toString(to.port()), "", "0",
					MIGRATE_TIMEOUT_MILLIS, "KEYS"));
			migrate.addAll(keys);
			from.command(migrate.toArray(String[]::new));
			moved += keys.size();
		}
	}

	/**
	 * Moves the keys left on the source, assigns the slot to the target on the target,
	 * the source and every other master ({@code SETSLOT NODE}), and returns once every
	 * live node sees the target serving it.
	 */
	public synchronized void finish() {
		moveKeys();
		List<RedisServer> order = new ArrayList<>(List.of(to, from));
		cluster.masters().stream().filter(master -> !order.contains(master)).forEach(order::add);
		for (RedisServer master : order) {
			master.command("CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", cluster.nodeId(to));
		}
		finished = true;
		ClusterHealth health = new ClusterHealth(cluster);
		BoundedWait.until("every node sees slot " + slot + " served by " + to.port(), RedisTopology.TOPOLOGY_TIMEOUT,
				() -> health.slotServedEverywhereBy(slot, to), health::describe);
	}

	@Override
	public String toString() {
		return "ClusterSlotMigration[slot " + slot + ", " + from.port() + " -> " + to.port()
				+ (finished ? ", finished" : ", in progress") + "]";
	}

	private void requireUnfinished() {
		if (finished) {
			throw new IllegalStateException(this + " is already finished");
		}
	}

}

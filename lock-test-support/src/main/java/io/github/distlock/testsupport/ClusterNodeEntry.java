package io.github.distlock.testsupport;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;

/**
 * One line of {@code CLUSTER NODES}: how one node sees another (or itself).
 *
 * @param id the node id
 * @param port the client port
 * @param flags e.g. {@code myself}, {@code master}, {@code slave}, {@code fail?},
 * {@code fail}, {@code handshake}
 * @param masterId the id of its master for a replica, {@code null} for a master
 * @param slots the slots it serves; migration markers ({@code [slot->-id]}) are not slots
 * and are left out
 */
record ClusterNodeEntry(String id, int port, Set<String> flags, String masterId, BitSet slots) {

	static List<ClusterNodeEntry> parse(String clusterNodes) {
		List<ClusterNodeEntry> entries = new ArrayList<>();
		for (String line : clusterNodes.split("\n")) {
			if (!line.isBlank()) {
				entries.add(parseLine(line.trim()));
			}
		}
		return entries;
	}

	private static ClusterNodeEntry parseLine(String line) {
		String[] fields = line.split(" ");
		if (fields.length < 8) {
			throw new IllegalArgumentException("Not a CLUSTER NODES line: " + line);
		}
		// 127.0.0.1:30001@40001[,hostname]
		String address = fields[1];
		int port = Integer
			.parseInt(address.substring(address.lastIndexOf(':', address.indexOf('@')) + 1, address.indexOf('@')));
		BitSet slots = new BitSet(RedisCluster.SLOTS);
		for (int i = 8; i < fields.length; i++) {
			String range = fields[i];
			if (range.startsWith("[")) {
				continue;
			}
			int dash = range.indexOf('-');
			int first = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
			int last = dash < 0 ? first : Integer.parseInt(range.substring(dash + 1));
			slots.set(first, last + 1);
		}
		return new ClusterNodeEntry(fields[0], port, Set.of(fields[2].split(",")),
				fields[3].equals("-") ? null : fields[3], slots);
	}

	boolean isMaster() {
		return flags.contains("master");
	}

	boolean isReplica() {
		return flags.contains("slave");
	}

	/** Whether it is suspected ({@code fail?}) or agreed ({@code fail}) to be down. */
	boolean isFailing() {
		return flags.contains("fail") || flags.contains("fail?");
	}

	/**
	 * Whether the cluster still has to learn who it is ({@code handshake},
	 * {@code noaddr}).
	 */
	boolean isUnknown() {
		return flags.contains("handshake") || flags.contains("noaddr");
	}

}

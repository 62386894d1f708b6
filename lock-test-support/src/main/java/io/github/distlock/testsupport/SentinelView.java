package io.github.distlock.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one Sentinel reports about one monitored master: its address, its state and the
 * replicas it knows, read over one connection ({@code SENTINEL MASTER},
 * {@code SENTINEL REPLICAS}).
 *
 * @param masterPort the port of the master it reports
 * @param master the fields of {@code SENTINEL MASTER}, e.g. {@code flags},
 * {@code num-other-sentinels}
 * @param replicas the fields of each replica it knows, by port, e.g. {@code flags},
 * {@code master-link-status}, {@code master-port}
 */
record SentinelView(int masterPort, Map<String, String> master, Map<Integer, Map<String, String>> replicas) {

	static SentinelView read(RedisServer sentinel, String masterName) {
		try (RespConnection connection = RespConnection.open(sentinel.host(), sentinel.port(),
				RedisTopology.PROBE_TIMEOUT)) {
			Map<String, String> master = fields(connection.call("SENTINEL", "MASTER", masterName));
			Map<Integer, Map<String, String>> replicas = new LinkedHashMap<>();
			for (Object replica : (List<?>) connection.call("SENTINEL", "REPLICAS", masterName)) {
				Map<String, String> fields = fields(replica);
				replicas.put(Integer.parseInt(fields.get("port")), fields);
			}
			return new SentinelView(Integer.parseInt(master.get("port")), master, replicas);
		}
		catch (IOException e) {
			throw new UncheckedIOException("SENTINEL MASTER to sentinel 127.0.0.1:" + sentinel.port() + " failed: " + e,
					e);
		}
	}

	/** Whether it sees the master up, with no failover going on. */
	boolean masterUp() {
		return "master".equals(master.get("flags"));
	}

	int otherSentinels() {
		return Integer.parseInt(master.get("num-other-sentinels"));
	}

	/**
	 * Whether it knows a replica on {@code port} and reaches it. What it last heard from
	 * the replica about its own link ({@code master-link-status}) is not asked for: a
	 * Sentinel asks replicas only every 10 s, and the replica's own {@code INFO} says it
	 * sooner.
	 */
	boolean reachesReplica(int port) {
		Map<String, String> replica = replicas.get(port);
		return replica != null && "slave".equals(replica.get("flags"));
	}

	private static Map<String, String> fields(Object reply) {
		List<?> flat = (List<?>) reply;
		Map<String, String> fields = new LinkedHashMap<>();
		for (int i = 0; i + 1 < flat.size(); i += 2) {
			fields.put(String.valueOf(flat.get(i)), String.valueOf(flat.get(i + 1)));
		}
		return fields;
	}

}

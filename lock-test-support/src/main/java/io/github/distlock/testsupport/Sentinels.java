package io.github.distlock.testsupport;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * The Sentinels of a {@link RedisSentinelGroup} and what they report about its master
 * ({@code SENTINEL GET-MASTER-ADDR-BY-NAME}); asks them to fail it over. May be called
 * from any thread.
 */
final class Sentinels {

	private final String masterName;

	private final List<RedisServer> sentinels = new CopyOnWriteArrayList<>();

	/** Why Sentinel last refused SENTINEL FAILOVER, for failure messages. */
	private volatile String lastFailoverRefusal;

	Sentinels(String masterName) {
		this.masterName = masterName;
	}

	void add(RedisServer sentinel) {
		sentinels.add(sentinel);
	}

	List<RedisServer> list() {
		return List.copyOf(sentinels);
	}

	/** Every Sentinel as {@code 127.0.0.1:<port>}, comma-separated. */
	String nodes() {
		return sentinels.stream()
			.map(sentinel -> sentinel.host() + ":" + sentinel.port())
			.collect(Collectors.joining(","));
	}

	/** The master port the first Sentinel that answers reports. */
	int masterPort() {
		RuntimeException failure = null;
		for (RedisServer sentinel : sentinels) {
			try {
				return reportedMasterPort(sentinel);
			}
			catch (RedisServerException | UncheckedIOException e) {
				failure = e;
			}
		}
		throw new RedisServerException("no Sentinel reports a master for " + masterName, failure);
	}

	/** The distinct master ports the Sentinels report. */
	List<Integer> reportedMasterPorts() {
		return sentinels.stream().map(this::reportedMasterPort).distinct().toList();
	}

	boolean allReport(RedisServer master) {
		return reportedMasterPorts().equals(List.of(master.port()));
	}

	/** Every Sentinel reports one master, and it is not {@code oldMaster}. */
	boolean allReportOneMasterOtherThan(RedisServer oldMaster) {
		List<Integer> reported = reportedMasterPorts();
		return reported.size() == 1 && !reported.contains(oldMaster.port());
	}

	/**
	 * {@code SENTINEL FAILOVER} to the first Sentinel.
	 * @return whether the Sentinel accepted it
	 */
	boolean requestFailover() {
		try {
			sentinels.get(0).command(RedisTopology.PROBE_TIMEOUT, "SENTINEL", "FAILOVER", masterName);
			return true;
		}
		catch (RedisServerException e) {
			lastFailoverRefusal = e.getMessage();
			return false;
		}
	}

	/** Why Sentinel last refused {@code SENTINEL FAILOVER}, or {@code null}. */
	String lastFailoverRefusal() {
		return lastFailoverRefusal;
	}

	private int reportedMasterPort(RedisServer sentinel) {
		String address = sentinel.command(RedisTopology.PROBE_TIMEOUT, "SENTINEL", "GET-MASTER-ADDR-BY-NAME",
				masterName);
		if (address == null) {
			throw new RedisServerException("sentinel " + sentinel.port() + " does not monitor " + masterName);
		}
		return Integer.parseInt(address.lines().toList().get(1));
	}

}

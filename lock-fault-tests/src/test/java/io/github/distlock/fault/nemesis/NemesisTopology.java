package io.github.distlock.fault.nemesis;

import java.util.List;

/**
 * The Redis processes of one nemesis run, how its clients reach them, and the faults the
 * nemesis may inject into them. Closing stops every process it started.
 */
interface NemesisTopology extends AutoCloseable {

	/** For the report, e.g. {@code quorum of 5}. */
	String name();

	/** The {@link NemesisClient} arguments that connect client {@code index}. */
	List<String> clientArgs(int index);

	/**
	 * The faults on Redis and the network this topology offers the nemesis.
	 * @param clients to put a holder in its critical section when a fault strikes
	 */
	List<FaultAction> faults(ClientFaults clients);

	/** Lock keys (not fencing records) still in Redis, on any node that answers. */
	List<String> lockKeys();

	@Override
	void close();

}

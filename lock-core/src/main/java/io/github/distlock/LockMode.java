package io.github.distlock;

/**
 * How a {@link DistributedLock @DistributedLock} method holds its lock id.
 */
public enum LockMode {

	/**
	 * A shared hold: any number of READ holders of an id at once, on any instance, while
	 * nobody holds it as WRITE. Once a WRITE acquisition waits for the id, new READ
	 * acquisitions wait behind it, so writers are never starved by a stream of readers. A
	 * thread holding READ cannot take WRITE of the same id (an upgrade would deadlock two
	 * readers): it fails at once. See {@link LockService#read()}.
	 */
	READ,

	/**
	 * An exclusive hold, the default: nobody else holds the id, READ, WRITE or a permit.
	 * A thread holding WRITE may take READ of the same id (a nested hold of its WRITE).
	 */
	WRITE

}

package io.github.distlock.core;

import io.github.distlock.autoconfigure.DistributedLockProperties;

/**
 * A class of the engine's package that uses the Boot wiring above it: what
 * {@code ArchitectureTests} must refuse, kept to show that its rules fail on a wrong-way
 * import (only the architecture tests import it, never the build's main classes).
 */
final class WrongWayImport {

	private final DistributedLockProperties properties = new DistributedLockProperties();

	DistributedLockProperties properties() {
		return this.properties;
	}

}

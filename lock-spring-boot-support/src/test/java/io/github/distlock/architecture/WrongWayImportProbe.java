package io.github.distlock.architecture;

/**
 * Reaches {@code io.github.distlock.core.WrongWayImport}, a package-private test class.
 */
final class WrongWayImportProbe {

	private WrongWayImportProbe() {
	}

	static Class<?> type() {
		try {
			return Class.forName("io.github.distlock.core.WrongWayImport");
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException(ex);
		}
	}

}

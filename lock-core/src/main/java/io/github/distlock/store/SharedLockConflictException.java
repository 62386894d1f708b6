package io.github.distlock.store;

/**
 * A shared acquisition asked for a key that is held shared in another way: with another
 * number of permits, or READ against permits. The number of permits is part of a lock's
 * identity; the acquisition changed nothing.
 */
public class SharedLockConflictException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final int heldPermits;

	private final int askedPermits;

	/**
	 * @param key the lock's key
	 * @param heldPermits how the key is held: 0 for READ, otherwise the number of permits
	 * @param askedPermits what was asked for, in the same terms
	 */
	public SharedLockConflictException(String key, int heldPermits, int askedPermits) {
		super("Lock key '" + key + "' is held as " + describe(heldPermits) + ", but was asked for as "
				+ describe(askedPermits));
		this.heldPermits = heldPermits;
		this.askedPermits = askedPermits;
	}

	/**
	 * How the key is held.
	 * @return 0 for READ, otherwise the number of permits
	 */
	public int getHeldPermits() {
		return this.heldPermits;
	}

	/**
	 * What was asked for.
	 * @return 0 for READ, otherwise the number of permits
	 */
	public int getAskedPermits() {
		return this.askedPermits;
	}

	/**
	 * A shared kind in words.
	 * @param permits 0 for READ, otherwise the number of permits
	 * @return e.g. {@code "READ locks"} or {@code "a semaphore of 3 permits"}
	 */
	public static String describe(int permits) {
		return (permits == 0) ? "READ locks" : "a semaphore of " + permits + " permits";
	}

}

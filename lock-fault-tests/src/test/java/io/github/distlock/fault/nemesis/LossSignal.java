package io.github.distlock.fault.nemesis;

/**
 * A call of a client's {@code LockLostListener}: the engine telling that client, unasked,
 * that it lost a hold. Printed by the listener as it is called, so its time is when the
 * holder was told (the listener runs on a thread of the engine's own, after the engine
 * found the loss).
 *
 * @param client the client JVM, e.g. {@code c1} (its threads are {@code c1-t0}, ...)
 * @param lockId the lost lock's id
 * @param token the lost hold's fencing token
 * @param nanos {@link System#nanoTime()} when the listener was called
 */
record LossSignal(String client, String lockId, long token, long nanos) {

	private static final String PREFIX = "LOST ";

	String toLine() {
		return PREFIX + this.client + " " + this.lockId + " " + this.token + " " + this.nanos;
	}

	static boolean isLossSignal(String line) {
		return line.startsWith(PREFIX);
	}

	static LossSignal parse(String line) {
		String[] f = line.split(" ");
		if (f.length != 5) {
			throw new IllegalArgumentException("not a lost-lock line: '" + line + "'");
		}
		return new LossSignal(f[1], f[2], Long.parseLong(f[3]), Long.parseLong(f[4]));
	}

	/** Whether it tells of {@code hold}: the same client, lock id and fencing token. */
	boolean tellsOf(Hold hold) {
		return hold.client().startsWith(this.client + "-") && hold.lockId().equals(this.lockId)
				&& hold.token() == this.token;
	}

}

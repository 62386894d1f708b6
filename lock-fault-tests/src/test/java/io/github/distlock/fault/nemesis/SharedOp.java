package io.github.distlock.fault.nemesis;

/**
 * One shared hold of the nemesis workload, as the client that ran it recorded it: a READ
 * hold ({@code permits} 0) of a register's id, beside the exclusive holds that write it,
 * or a permit of a semaphore id; held for a moment, then released. Times as in
 * {@link Op}.
 *
 * @param client the client thread
 * @param lockId the lock id
 * @param permits 0 for READ, otherwise the semaphore's number of permits
 * @param token the hold's fencing token
 * @param acquiredNanos just after the acquire returned
 * @param releasedNanos just before the release was sent
 * @param heldAtEnd whether the client still believed it held just before the release
 * @param release how the release ended: {@code ok}, {@code lost} or {@code failed}
 * @param leaseMillis the hold's lease (the service's: shared holds are never extended)
 */
record SharedOp(String client, String lockId, int permits, long token, long acquiredNanos, long releasedNanos,
		boolean heldAtEnd, String release, long leaseMillis) implements Hold {

	private static final String PREFIX = "SHARED ";

	@Override
	public boolean exclusive() {
		return false;
	}

	String toLine() {
		return PREFIX + this.client + " " + this.lockId + " " + this.permits + " " + this.token + " "
				+ this.acquiredNanos + " " + this.releasedNanos + " " + (this.heldAtEnd ? "held" : "lapsed") + " "
				+ this.release + " " + this.leaseMillis;
	}

	static boolean isSharedOp(String line) {
		return line.startsWith(PREFIX);
	}

	static SharedOp parse(String line) {
		String[] f = line.split(" ");
		if (f.length != 10) {
			throw new IllegalArgumentException("not a shared operation line: '" + line + "'");
		}
		return new SharedOp(f[1], f[2], Integer.parseInt(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]),
				Long.parseLong(f[6]), f[7].equals("held"), f[8], Long.parseLong(f[9]));
	}

	@Override
	public String toString() {
		return this.client + ((this.permits == 0) ? " READ" : " permit of " + this.permits) + " token " + this.token
				+ " [" + this.acquiredNanos + ".." + this.releasedNanos + "]" + (this.heldAtEnd ? "" : ", lease lapsed")
				+ ", release " + this.release;
	}

}

package io.github.distlock.fault.nemesis;

/**
 * One operation of the nemesis workload, as the client that ran it recorded it: a lock
 * acquired, the lock id's counter read from the fenced resource, written back plus one
 * with the hold's fencing token, the lock released. Times are {@link System#nanoTime()}
 * of the client: CLOCK_MONOTONIC, one clock for every process of the host, which
 * libfaketime is told to leave alone (see {@link ClockJumps}).
 *
 * @param client the client thread, e.g. {@code c2-t1}
 * @param lockId the lock id, which is also the name of the fenced register
 * @param token the hold's fencing token
 * @param acquiredNanos just after the acquire returned, before the fencing token was
 * read: a token is issued on its first read, during the hold, so the hold began before
 * it. (Taken after the read, a client frozen between the two showed a hold that began
 * seconds after its token was issued, after other holders' greater tokens: "token went
 * back", a false violation; CI, seed 2084095628344.)
 * @param writeSentNanos just before the write was sent to the fenced resource
 * @param writeAckNanos just after the fenced resource answered it
 * @param releasedNanos just before the release was sent
 * @param accepted whether the fenced resource accepted the write
 * @param heldAtEnd whether the client still believed it held the lock just before the
 * release ({@code LockHandle.isHeld()}: its lease had not lapsed, by its own conservative
 * clock)
 * @param release how the release ended: {@code ok}, {@code lost} (the lock was lost
 * before it) or {@code failed} (Redis did not answer)
 * @param leaseMillis the longest lease the hold had (the service's, or an extend's)
 * @param sawLossNanos when the holder first saw {@code isHeld()} or {@code extend()}
 * answer that it no longer held, before the release; {@link Hold#NEVER} if it did not
 * @param extensions how many times the holder called {@code extend()}
 */
record Op(String client, String lockId, long token, long acquiredNanos, long writeSentNanos, long writeAckNanos,
		long releasedNanos, boolean accepted, boolean heldAtEnd, String release, long leaseMillis, long sawLossNanos,
		int extensions) implements Hold {

	private static final String PREFIX = "OP ";

	String toLine() {
		return PREFIX + this.client + " " + this.lockId + " " + this.token + " " + this.acquiredNanos + " "
				+ this.writeSentNanos + " " + this.writeAckNanos + " " + this.releasedNanos + " "
				+ (this.accepted ? "accepted" : "rejected") + " " + (this.heldAtEnd ? "held" : "lapsed") + " "
				+ this.release + " " + this.leaseMillis + " "
				+ ((this.sawLossNanos != NEVER) ? Long.toString(this.sawLossNanos) : "-") + " " + this.extensions;
	}

	static boolean isOp(String line) {
		return line.startsWith(PREFIX);
	}

	static Op parse(String line) {
		String[] f = line.split(" ");
		if (f.length != 14) {
			throw new IllegalArgumentException("not an operation line: '" + line + "'");
		}
		return new Op(f[1], f[2], Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]),
				Long.parseLong(f[6]), Long.parseLong(f[7]), f[8].equals("accepted"), f[9].equals("held"), f[10],
				Long.parseLong(f[11]), f[12].equals("-") ? NEVER : Long.parseLong(f[12]), Integer.parseInt(f[13]));
	}

	@Override
	public String toString() {
		return this.client + " token " + this.token + " [" + this.acquiredNanos + ".." + this.releasedNanos + "] write "
				+ (this.accepted ? "accepted" : "rejected") + (this.heldAtEnd ? "" : ", lease lapsed")
				+ ((this.extensions > 0) ? ", " + this.extensions + " extends, lease up to " + this.leaseMillis + " ms"
						: "")
				+ ((this.sawLossNanos != NEVER) ? ", saw it gone at " + this.sawLossNanos : "") + ", release "
				+ this.release;
	}

}

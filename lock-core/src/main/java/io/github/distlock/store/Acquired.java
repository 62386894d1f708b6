package io.github.distlock.store;

/**
 * The lock is now held by the owner the operation named (the acquirer, or the new owner
 * of a hand-over); as the reply of {@link LockStore#issueFencingToken}, it is held by
 * that owner, with the token issued.
 *
 * @param fencingToken greater than every token handed out before for the same key, or
 * {@link #TOKEN_ON_READ}
 */
public record Acquired(long fencingToken) implements AcquireReply, HandOverReply, FencingTokenReply {

	/**
	 * The token of an acquisition whose token the store issues only when it is read
	 * ({@link LockStore#issueFencingToken}): never a token itself, tokens are positive.
	 */
	public static final long TOKEN_ON_READ = 0;

	/** An acquisition whose fencing token is issued on its first read. */
	public static final Acquired TOKEN_ISSUED_ON_READ = new Acquired(TOKEN_ON_READ);

	/**
	 * @return whether the token is issued only when read: ask
	 * {@link LockStore#issueFencingToken} for it
	 */
	public boolean tokenOnRead() {
		return this.fencingToken == TOKEN_ON_READ;
	}

}

package io.github.distlock.store;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads the fencing token of an {@link Acquired} reply as the engine does: from the
 * reply, or, when the store left it for the first read ({@link Acquired#TOKEN_ON_READ}),
 * from {@link LockStore#issueFencingToken}. So the contract tests hold a store that
 * issues tokens on read to the same token rules as one that issues them with every
 * acquisition.
 */
public final class FencingTokens {

	private FencingTokens() {
	}

	/**
	 * @param reply the reply to an acquisition or hand-over of {@code owner}, which must
	 * be {@link Acquired}
	 * @return its fencing token, issued now if it was left for the read
	 */
	public static long read(LockStore store, String key, String owner, Object reply) {
		assertThat(reply).isInstanceOf(Acquired.class);
		Acquired acquired = (Acquired) reply;
		if (!acquired.tokenOnRead()) {
			return acquired.fencingToken();
		}
		FencingTokenReply issued = store.issueFencingToken(key, owner);
		assertThat(issued).isInstanceOf(Acquired.class);
		long token = ((Acquired) issued).fencingToken();
		assertThat(token).isPositive();
		return token;
	}

}

package io.github.distlock.core;

import io.github.distlock.store.Acquired;
import io.github.distlock.store.FencingTokenReply;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.Unknown;

/**
 * A holder reads its fencing token: the one that came with the acquisition or, from a
 * store that issues it on read ({@link Acquired#TOKEN_ON_READ}), one issued on the first
 * read by {@link LockStore#issueFencingToken}: one owner-checked round trip, made once
 * per hold and cached. Holds of a lock are disjoint in time, so a token issued during
 * this hold is greater than every token of earlier holders and smaller than those of
 * later ones; callers that never read the token never pay for it. Observations, events
 * and the actuator show the token only once it is known
 * ({@link HeldLock#knownFencingToken()}, 0 until then): they never issue one.
 * <p>
 * The token is issued under the hold's lease lock, so concurrent first reads wait for one
 * issue (and a renewal of the lock waits for it, or is batched around it), and a read
 * waits at most until the lease runs out.
 */
final class FencingTokenReads {

	private FencingTokenReads() {
	}

	/**
	 * The fencing token of {@code held}, issued by {@code store} on the first read if the
	 * acquisition left it for then. A hold that ended (released, lost, or its lease ran
	 * out) before its token was read gets none: 0, below every token, so a resource
	 * accepting only greater tokens rejects it; a store answering that the owner no
	 * longer holds the lock ends the hold as renewal would ({@code losses}).
	 * @throws RuntimeException the store's failure when the outcome is unknown; a later
	 * read asks again
	 */
	static long read(HeldLock held, LockStore store, LockLosses losses) {
		long token = held.knownFencingToken();
		if (token != Acquired.TOKEN_ON_READ || !held.isHeld() || !held.lockLease()) {
			return token;
		}
		try {
			if (held.knownFencingToken() != Acquired.TOKEN_ON_READ || !held.isHeld()) {
				return held.knownFencingToken();
			}
			FencingTokenReply reply = store.issueFencingToken(held.entry.key, held.ownerToken);
			if (reply instanceof Acquired issued) {
				held.tokenIssued(issued.fencingToken());
				return issued.fencingToken();
			}
			if (reply instanceof Unknown unknown) {
				throw unknown.cause();
			}
		}
		finally {
			held.unlockLease();
		}
		losses.lost(held, "expired or owned by another instance when its fencing token was read");
		return Acquired.TOKEN_ON_READ;
	}

}

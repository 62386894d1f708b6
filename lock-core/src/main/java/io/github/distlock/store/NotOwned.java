package io.github.distlock.store;

/**
 * The owner token did not hold the lock (any more): its lease ran out, or another owner
 * holds it. Nothing was changed.
 */
public record NotOwned() implements ReleaseReply, HandOverReply, ExtendReply, FencingTokenReply {

	/** The one instance. */
	public static final NotOwned INSTANCE = new NotOwned();

}

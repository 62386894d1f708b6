package io.github.distlock.store;

/**
 * The lock was released (and its release announced if somebody was waiting).
 */
public record Released() implements ReleaseReply, HandOverReply {

	/** The one instance. */
	public static final Released INSTANCE = new Released();

}

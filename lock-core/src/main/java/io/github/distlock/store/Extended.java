package io.github.distlock.store;

/**
 * The lease was reset.
 */
public record Extended() implements ExtendReply {

	/** The one instance. */
	public static final Extended INSTANCE = new Extended();

}

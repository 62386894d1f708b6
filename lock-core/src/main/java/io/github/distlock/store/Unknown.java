package io.github.distlock.store;

import java.util.concurrent.CompletionException;

/**
 * The outcome is unknown: the store could not be reached, did not answer in time, or
 * cannot write for now (a Redis loading its data, failing over or out of memory). The
 * command may still be applied, so an acquirer cleans up after it, and a holder treats
 * its lease as the bound.
 *
 * @param cause what the store's client reported
 */
public record Unknown(
		RuntimeException cause) implements AcquireReply, HandOverReply, ReleaseReply, ExtendReply, FencingTokenReply {

	/**
	 * The outcome of a call that failed with {@code failure}, as a stage completes: the
	 * cause of a {@link CompletionException} rather than the wrapper.
	 * @param failure what the call or its stage failed with
	 * @return the unknown outcome
	 */
	public static Unknown of(Throwable failure) {
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		return new Unknown((cause instanceof RuntimeException runtime) ? runtime : new CompletionException(cause));
	}

}

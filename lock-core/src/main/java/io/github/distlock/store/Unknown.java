package io.github.distlock.store;

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

}

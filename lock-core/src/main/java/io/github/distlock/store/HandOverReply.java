package io.github.distlock.store;

/**
 * The reply of {@link LockStore#handOver}.
 */
public sealed interface HandOverReply permits Acquired, Released, NotOwned, NotReplicated, Unknown {

}

package io.github.distlock.store;

/**
 * The reply of {@link LockStore#extend}.
 */
public sealed interface ExtendReply permits Extended, NotOwned, Unknown {

}

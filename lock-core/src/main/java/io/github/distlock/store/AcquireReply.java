package io.github.distlock.store;

/**
 * The reply of {@link LockStore#acquire}.
 */
public sealed interface AcquireReply permits Acquired, HeldByOther, NotReplicated, Unknown {

}

package io.github.distlock.store;

/**
 * The reply of {@link LockStore#issueFencingToken}: {@link Acquired} with the issued
 * token while the owner holds the lock.
 */
public sealed interface FencingTokenReply permits Acquired, NotOwned, Unknown {

}

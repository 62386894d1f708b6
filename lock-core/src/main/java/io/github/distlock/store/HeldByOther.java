package io.github.distlock.store;

/**
 * Another owner holds the lock; its release will be announced.
 *
 * @param remainingLeaseMillis how long the holder's lease still runs, at most; the holder
 * may release earlier or renew it
 */
public record HeldByOther(long remainingLeaseMillis) implements AcquireReply {

}

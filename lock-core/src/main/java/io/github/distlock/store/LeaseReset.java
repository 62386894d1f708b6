package io.github.distlock.store;

/**
 * One lease reset of {@link LockStore#extendAll}: what {@link LockStore#extend} takes for
 * one lock.
 *
 * @param key the lock's key
 * @param owner the owner token
 * @param leaseMillis the new lease, at least 1
 */
public record LeaseReset(String key, String owner, long leaseMillis) {

}

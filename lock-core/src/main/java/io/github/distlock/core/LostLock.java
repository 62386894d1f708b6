package io.github.distlock.core;

/**
 * A lock found lost while its holder still worked, as {@link LockLostListener}s are told
 * of it.
 *
 * @param lockId the id of the lost lock
 * @param fencingToken the fencing token of the lost hold
 * @param reason why it was found lost (gone at renewal, owned by another, ...)
 */
public record LostLock(String lockId, long fencingToken, String reason) {

}

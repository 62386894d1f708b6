package io.github.distlock.store;

/**
 * The lock is now held by the owner the operation named (the acquirer, or the new owner
 * of a hand-over).
 *
 * @param fencingToken greater than every token handed out before for the same key
 */
public record Acquired(long fencingToken) implements AcquireReply, HandOverReply {

}

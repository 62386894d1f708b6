package io.github.distlock.store;

/**
 * The reply of {@link LockStore#release}.
 */
public sealed interface ReleaseReply permits Released, NotOwned, Unknown {

}

package io.github.distlock.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.github.distlock.autoconfigure.DistributedLockProperties.Store;

import org.springframework.context.annotation.Conditional;

/**
 * Matches when {@code distributed-lock.store} names the given store, or when it is not
 * set and the store is {@link Store#REDIS}, the default.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
@Documented
@Conditional(OnLockStoreCondition.class)
@interface ConditionalOnLockStore {

	/**
	 * The store the annotated configuration sets up.
	 * @return the store
	 */
	Store value();

}

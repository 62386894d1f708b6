package io.github.distlock.aspectj;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Put on every {@link io.github.distlock.DistributedLock @DistributedLock} method by
 * {@link DistributedLockAspect} when it weaves the method's class, so that the
 * application context can tell at startup whether a locked method will really be
 * intercepted. Not for hand use.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface WovenByDistributedLockAspect {

}

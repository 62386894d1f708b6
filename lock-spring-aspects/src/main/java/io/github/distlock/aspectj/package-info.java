/**
 * AspectJ mode of {@link io.github.distlock.DistributedLock @DistributedLock}: the
 * aspect, woven at compile time or at load time, and its binding to an application
 * context chosen with {@code @EnableDistributedLock(mode = AdviceMode.ASPECTJ)}. Modelled
 * on Spring's {@code spring-aspects}.
 */
@NullMarked
package io.github.distlock.aspectj;

import org.jspecify.annotations.NullMarked;

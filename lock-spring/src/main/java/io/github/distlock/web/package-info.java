/**
 * The opt-in answer of Spring MVC and WebFlux applications to a lock that was not
 * acquired: {@link io.github.distlock.web.LockNotAcquiredExceptionHandler}.
 */
@NullMarked
package io.github.distlock.web;

import org.jspecify.annotations.NullMarked;

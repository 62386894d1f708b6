/**
 * Spring Boot auto-configuration of distributed locks.
 */
@NullMarked
package io.github.distlock.autoconfigure;

import org.jspecify.annotations.NullMarked;

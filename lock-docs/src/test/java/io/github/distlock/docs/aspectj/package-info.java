/**
 * AspectJ mode, compiled only: running it needs {@code lock-spring-aspects} and weaving
 * (see {@code lock-spring-aspects}' own tests). Outside the shop application's package,
 * so its contexts stay in proxy mode.
 */
@NullMarked
package io.github.distlock.docs.aspectj;

import org.jspecify.annotations.NullMarked;

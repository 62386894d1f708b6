package io.github.distlock.docs.aspectj;

import io.github.distlock.config.EnableDistributedLock;

import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.annotation.Configuration;

// tag::enable[]
@Configuration
@EnableDistributedLock(mode = AdviceMode.ASPECTJ)
class LockConfiguration {

}
// end::enable[]

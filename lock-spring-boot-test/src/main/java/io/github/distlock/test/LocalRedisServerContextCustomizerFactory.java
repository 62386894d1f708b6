package io.github.distlock.test;

import org.springframework.beans.factory.support.RootBeanDefinition;

/**
 * {@link LocalRedisServer @LocalRedisServer} on Spring Boot 4: the server is registered
 * as Boot's {@code DataRedisConnectionDetails}.
 */
class LocalRedisServerContextCustomizerFactory extends LocalRedisServerContextCustomizerFactorySupport {

	LocalRedisServerContextCustomizerFactory() {
		super("org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails", "spring-boot-data-redis");
	}

	@Override
	RootBeanDefinition connectionDetails(int port) {
		return new RootBeanDefinition(LocalRedisServerConnectionDetails.class,
				() -> LocalRedisServerConnectionDetails.start(port));
	}

}

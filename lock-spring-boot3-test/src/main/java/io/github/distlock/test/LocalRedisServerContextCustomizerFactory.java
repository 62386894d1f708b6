package io.github.distlock.test;

import org.springframework.beans.factory.support.RootBeanDefinition;

/**
 * {@link LocalRedisServer @LocalRedisServer} on Spring Boot 3.5: the server is registered
 * as Boot's {@code RedisConnectionDetails}.
 */
class LocalRedisServerContextCustomizerFactory extends LocalRedisServerContextCustomizerFactorySupport {

	LocalRedisServerContextCustomizerFactory() {
		super("org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails", "spring-boot-autoconfigure");
	}

	@Override
	RootBeanDefinition connectionDetails(int port) {
		return new RootBeanDefinition(LocalRedisServerConnectionDetails.class,
				() -> LocalRedisServerConnectionDetails.start(port));
	}

}

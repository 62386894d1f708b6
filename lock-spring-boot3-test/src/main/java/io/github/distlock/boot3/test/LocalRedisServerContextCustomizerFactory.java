package io.github.distlock.boot3.test;

import io.github.distlock.test.LocalRedisServerContextCustomizerFactorySupport;
import org.springframework.beans.factory.support.RootBeanDefinition;

/**
 * {@link io.github.distlock.test.LocalRedisServer @LocalRedisServer} on Spring Boot 3.5:
 * the server is registered as Boot's {@code RedisConnectionDetails}.
 */
public class LocalRedisServerContextCustomizerFactory extends LocalRedisServerContextCustomizerFactorySupport {

	public LocalRedisServerContextCustomizerFactory() {
		super("org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails", "spring-boot-autoconfigure");
	}

	@Override
	protected RootBeanDefinition connectionDetails(int port) {
		return new RootBeanDefinition(LocalRedisServerConnectionDetails.class,
				() -> LocalRedisServerConnectionDetails.start(port));
	}

}

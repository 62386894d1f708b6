package io.github.distlock.boot4.test;

import io.github.distlock.test.LocalRedisServerContextCustomizerFactorySupport;
import org.springframework.beans.factory.support.RootBeanDefinition;

/**
 * {@link io.github.distlock.test.LocalRedisServer @LocalRedisServer} on Spring Boot 4:
 * the server is registered as Boot's {@code DataRedisConnectionDetails}.
 */
public class LocalRedisServerContextCustomizerFactory extends LocalRedisServerContextCustomizerFactorySupport {

	public LocalRedisServerContextCustomizerFactory() {
		super("org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails", "spring-boot-data-redis");
	}

	@Override
	protected RootBeanDefinition connectionDetails(int port) {
		return new RootBeanDefinition(LocalRedisServerConnectionDetails.class,
				() -> LocalRedisServerConnectionDetails.start(port));
	}

}

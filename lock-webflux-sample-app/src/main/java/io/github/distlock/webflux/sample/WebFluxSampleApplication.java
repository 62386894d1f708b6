package io.github.distlock.webflux.sample;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The oversold race on WebFlux: a stock kept in Redis, bought through a reactive
 * {@code @DistributedLock} method ({@link ReactiveShop}), served by Reactor Netty
 * ({@link ShopController}). Start two instances on one Redis and send them 200 buyers of
 * 100 items: exactly 100 are sold, as in {@code lock-sample-app}, without a thread
 * blocked anywhere.
 */
@SpringBootApplication
public class WebFluxSampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(WebFluxSampleApplication.class, args);
	}

	/**
	 * Opens Spring Data Redis's shared connection at startup: it is opened on first use
	 * otherwise, blocking the thread that uses it first, a Reactor Netty event loop here
	 * (BlockHound finds it). distlock's own first use opens it off the event loop.
	 */
	@Bean
	static BeanPostProcessor eagerRedisConnection() {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessBeforeInitialization(Object bean, String beanName) {
				if (bean instanceof LettuceConnectionFactory factory) {
					factory.setEagerInitialization(true);
				}
				return bean;
			}

		};
	}

}

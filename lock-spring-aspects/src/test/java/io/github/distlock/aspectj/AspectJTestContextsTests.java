package io.github.distlock.aspectj;

import io.github.distlock.config.EnableDistributedLock;
import io.github.distlock.LockService;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestClassOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ASPECTJ mode under Spring's test context cache (issue 39): an in-memory test class, a
 * Redis-backed one, then the in-memory one's cached context again, in one JVM, in that
 * order. The aspect is one per class loader while both contexts stay open; each bean's
 * woven methods must lock through the context that made the bean, not through the one
 * started last (before, the third class locked through the Redis context).
 */
@TestClassOrder(ClassOrderer.OrderAnnotation.class)
class AspectJTestContextsTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private static ApplicationContext firstInMemoryContext;

	@Nested
	@Order(1)
	@SpringBootTest(classes = PantryApplication.class, properties = "distributed-lock.store=in-memory")
	class InMemoryFirst {

		@Autowired
		private ApplicationContext context;

		@Autowired
		private Pantry pantry;

		@Test
		void locksThroughItsOwnContext() {
			firstInMemoryContext = this.context;
			this.pantry.take("flour");
			assertThat(this.pantry.seen()).containsExactly("pantry:flour held in own context=true, handle=true");
		}

	}

	@Nested
	@Order(2)
	@SpringBootTest(classes = PantryApplication.class)
	class RedisBacked {

		@DynamicPropertySource
		static void redisServer(DynamicPropertyRegistry properties) {
			properties.add("spring.data.redis.host", redis::host);
			properties.add("spring.data.redis.port", redis::port);
		}

		@Autowired
		private ApplicationContext context;

		@Autowired
		private Pantry pantry;

		@Test
		void locksThroughItsOwnContext() {
			assertThat(this.context).isNotSameAs(firstInMemoryContext);
			this.pantry.take("sugar");
			assertThat(this.pantry.seen()).containsExactly("pantry:sugar held in own context=true, handle=true");
		}

	}

	@Nested
	@Order(3)
	@SpringBootTest(classes = PantryApplication.class, properties = "distributed-lock.store=in-memory")
	class InMemoryAgain {

		@Autowired
		private ApplicationContext context;

		@Autowired
		private Pantry pantry;

		@Test
		void stillLocksThroughItsOwnCachedContext() {
			assertThat(this.context).as("the first class's context, from the cache").isSameAs(firstInMemoryContext);
			this.pantry.take("salt");
			assertThat(this.pantry.seen()).contains("pantry:salt held in own context=true, handle=true");
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableDistributedLock(mode = AdviceMode.ASPECTJ)
	@ImportRedisAndLockAutoConfiguration
	static class PantryApplication {

		@Bean
		Pantry pantry(LockService lockService) {
			return new Pantry(lockService);
		}

	}

}

package io.github.distlock.test;

import java.time.Duration;
import java.util.List;

import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ContextCustomizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@code @LocalRedisServer(port = …)}: the server listens on the port asked for (issue
 * 39), 0 means a free one, 6379 is refused, and a port is part of the context's identity.
 */
@SpringBootTest
@LocalRedisServer(port = LineUnderTest.LOCAL_REDIS_PORT)
class LocalRedisServerPortTests {

	@Autowired
	private LocalRedisServerDetailsSupport local;

	@Autowired
	private LockService lockService;

	@Test
	void theServerListensOnThePortAskedFor() {
		assertThat(this.local.server().port()).isEqualTo(LineUnderTest.LOCAL_REDIS_PORT);
		assertThat(LineUnderTest.standalone(this.local).getPort()).isEqualTo(LineUnderTest.LOCAL_REDIS_PORT);
		try (LockHandle handle = this.lockService.lock("stock:apple", Duration.ofSeconds(10))) {
			assertThat(handle.isHeld()).isTrue();
			assertThat(this.local.server().keys("*")).anyMatch((key) -> key.contains("stock:apple"));
		}
	}

	@Test
	void aPortIsPartOfTheContextsIdentity() {
		LocalRedisServerContextCustomizerFactorySupport factory = LineUnderTest.localRedisServerFactory();
		ContextCustomizer asked = factory.createContextCustomizer(LocalRedisServerPortTests.class, List.of());
		ContextCustomizer free = factory.createContextCustomizer(FreePort.class, List.of());
		assertThat(asked).isNotNull().isNotEqualTo(free);
		assertThat(free).isEqualTo(factory.createContextCustomizer(AnotherFreePort.class, List.of()));
		assertThat(factory.createContextCustomizer(NoServer.class, List.of())).isNull();
	}

	@Test
	void theDevelopersOwnRedisPortIsRefused() {
		assertThatIllegalStateException().isThrownBy(
				() -> LineUnderTest.localRedisServerFactory().createContextCustomizer(DevelopersPort.class, List.of()))
			.withMessageContaining("@LocalRedisServer(port = 6379) on " + DevelopersPort.class.getName())
			.withMessageContaining("not 6379");
	}

	@LocalRedisServer
	static class FreePort {

	}

	@LocalRedisServer(port = 0)
	static class AnotherFreePort {

	}

	static class NoServer {

	}

	@LocalRedisServer(port = 6379)
	static class DevelopersPort {

	}

}

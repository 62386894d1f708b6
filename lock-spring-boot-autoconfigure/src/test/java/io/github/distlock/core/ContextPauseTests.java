package io.github.distlock.core;

import java.time.Duration;

import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.context.LockEngineContextBinding;
import io.github.distlock.store.InMemoryLockStore;
import org.junit.jupiter.api.Test;

import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Spring TestContext framework pauses a cached application context while the tests of
 * another context run (Spring Framework 7, {@code spring.test.context.cache.pause}
 * defaults to {@code ON_CONTEXT_SWITCH}) and restarts it for the next test using it: the
 * lock service must still lock then.
 */
class ContextPauseTests {

	@Test
	void lockServiceStillLocksAfterItsContextWasPausedAndRestarted() {
		try (GenericApplicationContext context = new GenericApplicationContext()) {
			context.registerBean(LockEngineContextBinding.class);
			context.registerBean(LockEngine.class,
					() -> new LockEngine(new InMemoryLockStore(), Duration.ofSeconds(30)));
			context.refresh();
			context.pause();
			context.restart();
			LockService locks = context.getBean(LockService.class);
			try (LockHandle handle = locks.lock("after-pause", Duration.ZERO)) {
				assertThat(handle.isHeld()).isTrue();
			}
		}
	}

}

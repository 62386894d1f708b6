package io.github.distlock.core;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.LockService;
import io.github.distlock.store.InMemoryLockStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The engine as a plain-Java user has it (issue 26): no Spring on the class path, an
 * {@link InMemoryLockStore}, the engine closed with try-with-resources, losses told to a
 * {@link LockLostListener}.
 */
class PlainJavaLockEngineTests {

	private static final Duration BOUND = Duration.ofSeconds(10);

	@Test
	void springIsNotOnTheClassPath() {
		assertThat(isPresent("org.springframework.context.ApplicationContext")).isFalse();
		assertThat(isPresent("org.springframework.beans.factory.DisposableBean")).isFalse();
		assertThat(isPresent("org.springframework.core.SpringVersion")).isFalse();
	}

	@Test
	void locksExcludeOtherThreadsUntilReleased() throws Exception {
		try (LockEngine engine = new LockEngine(new InMemoryLockStore(), Duration.ofSeconds(30))) {
			LockService locks = engine;
			LockHandle held = locks.lock("plain", Duration.ZERO);
			CompletableFuture<Optional<LockHandle>> elsewhere = CompletableFuture
				.supplyAsync(() -> locks.tryLock("plain", Duration.ZERO, null));
			assertThat(elsewhere.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEmpty();
			CompletableFuture<Optional<LockHandle>> waiting = CompletableFuture
				.supplyAsync(() -> locks.tryLock("plain", BOUND, null));
			held.close();
			try (LockHandle next = waiting.get(BOUND.toSeconds(), TimeUnit.SECONDS).orElseThrow()) {
				assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
			}
		}
	}

	@Test
	void aLostLockIsToldToTheListenerAndThrownAtRelease() throws Exception {
		InMemoryLockStore store = new InMemoryLockStore();
		try (LockEngine engine = new LockEngine(store, Duration.ofSeconds(30))) {
			BlockingQueue<LostLock> lost = new LinkedBlockingQueue<>();
			engine.setLockLostListener(lost::add);
			LockHandle handle = engine.lock("taken", Duration.ZERO);
			String key = store.key("taken");
			store.release(key, store.holderOf(key).orElseThrow());
			store.acquire(key, "intruder", Duration.ofMinutes(1).toMillis());
			engine.renewNow();
			LostLock loss = lost.poll(BOUND.toSeconds(), TimeUnit.SECONDS);
			assertThat(loss).isNotNull();
			assertThat(loss.lockId()).isEqualTo("taken");
			assertThat(loss.fencingToken()).isEqualTo(handle.fencingToken());
			assertThat(handle.isHeld()).isFalse();
			assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::close);
			assertThat(store.holderOf(key)).contains("intruder");
		}
	}

	@Test
	void closingTheEngineReleasesWhatItHolds() {
		InMemoryLockStore store = new InMemoryLockStore();
		LockEngine engine = new LockEngine(store, Duration.ofSeconds(30));
		engine.lock("left-held", Duration.ZERO);
		assertThat(engine.isRunning()).isTrue();
		engine.close();
		assertThat(engine.isRunning()).isFalse();
		assertThat(store.holderOf(store.key("left-held"))).isEmpty();
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, PlainJavaLockEngineTests.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException ex) {
			return false;
		}
	}

}

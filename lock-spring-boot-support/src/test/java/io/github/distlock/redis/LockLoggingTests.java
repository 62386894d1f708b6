package io.github.distlock.redis;

import java.time.Duration;
import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.OnLockFailure;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What the lock service logs: one INFO line per lost lock (id, name, reason, never the
 * owner token), DEBUG for acquire and release, nothing above DEBUG on the hot path.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockLoggingTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	private final Logger logger = (Logger) LoggerFactory.getLogger("io.github.distlock");

	private Level previousLevel;

	@BeforeEach
	void setUp() {
		this.previousLevel = this.logger.getLevel();
	}

	@AfterEach
	void tearDown() {
		this.logger.setLevel(this.previousLevel);
	}

	@Test
	void aLockLostAtReleaseIsOneInfoLineWithIdNameAndReason(CapturedOutput output) {
		LockEngine service = this.clients.newService();
		LockHandle handle = service
			.tryLock("stock", "stock:apple", Duration.ZERO, Duration.ofMinutes(1), OnLockFailure.THROW)
			.orElseThrow();
		String ownerToken = redis.command("GET", "distlock:{stock:apple}");
		redis.command("DEL", "distlock:{stock:apple}");
		assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::close);
		assertThat(lostLines(output)).singleElement()
			.asString()
			.contains("INFO")
			.contains("Lost lock 'stock:apple' (name 'stock'): the lock key had expired or was owned by another");
		assertThat(output).doesNotContain(ownerToken);
	}

	@Test
	void aLockLostByRenewalIsLoggedOnceNotAgainAtRelease(CapturedOutput output) {
		LockEngine service = this.clients.newService(RedisLockSettings.defaults().withLeaseTime(Duration.ofSeconds(3)));
		LockHandle handle = service.lock("job:nightly", Duration.ZERO);
		String ownerToken = redis.command("GET", "distlock:{job:nightly}");
		redis.command("DEL", "distlock:{job:nightly}");
		// Renewal (not the release) must be the one that finds the loss.
		await().atMost(Duration.ofSeconds(10)).until(() -> service.locksLost() == 1);
		assertThat(handle.isHeld()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::close);
		assertThat(lostLines(output)).singleElement().asString().contains("Lost lock 'job:nightly': renewal");
		assertThat(service.locksLost()).isOne();
		assertThat(output).doesNotContain(ownerToken);
	}

	@Test
	void acquireAndReleaseLogAtDebugOnly(CapturedOutput output) {
		LockEngine service = this.clients.newService();
		LockEngine other = this.clients.newService();
		this.logger.setLevel(Level.INFO);
		try (LockHandle handle = service.lock("stock:pear", Duration.ZERO)) {
			assertThat(other.tryLock("stock:pear", Duration.ZERO, null)).isEmpty();
		}
		service.lock("stock:pear", Duration.ZERO).close();
		assertThat(output).doesNotContain("stock:pear");
		this.logger.setLevel(Level.DEBUG);
		service.lock("stock:plum", Duration.ZERO).close();
		assertThat(output).contains("Acquired lock 'stock:plum'").contains("Released lock 'stock:plum'");
	}

	private static List<String> lostLines(CapturedOutput output) {
		return output.getAll().lines().filter((line) -> line.contains("Lost lock")).toList();
	}

}

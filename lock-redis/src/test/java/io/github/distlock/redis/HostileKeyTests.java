package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import ch.qos.logback.classic.Level;
import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.core.LockEngine;
import io.github.distlock.support.LogSafe;
import io.github.distlock.testsupport.RedisServer;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Lock ids chosen by an attacker: they get distinct keys, cannot choose the Redis Cluster
 * slot (checked by a cluster-enabled Redis's own {@code CLUSTER KEYSLOT}), cannot forge
 * log lines, and huge ones are hashed. Bad arguments fail before anything is locked.
 */
class HostileKeyTests {

	/**
	 * Ids that differ only in characters with a meaning somewhere: hash tags, separators,
	 * escapes, lines.
	 */
	static final List<String> HOSTILE_IDS = List.of("a", "a:", ":a", "a::b", "a:b", "{a}", "a}", "{a", "}{a", "{}a",
			"%7Ba%7D", "a%", "%", "#a", "%23a", "a\r\nb", "a\nb", "a%0D%0Ab", "a\u2028b", "a\u0000b", " ", "  ", "\t",
			"Äpfel", "A\u0308pfel", "\uD83D\uDE00", "\uD83D", "\uDE00", "\u202Eevil", "ä{", "ä}", "x".repeat(1_000_000),
			"x".repeat(1_000_000) + "{y}", "{y}" + "x".repeat(1_000_000));

	/** Characters that end a line, or reorder it, on a terminal or in a log viewer. */
	private static final String LINE_BREAKING = "[\\r\\n\\u000b\\u000c\\u0085\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]";

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	/** Answers {@code CLUSTER KEYSLOT} (Redis's own CRC16 rule), holds no data. */
	@RegisterExtension
	static final RedisServerExtension clusterNode = new RedisServerExtension(
			() -> RedisServer.builder().arg("cluster-enabled", "yes").start())
		.withoutFlushing();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	@Test
	void distinctHostileIdsLockDistinctKeysInTheSlotOfTheirOwnEscapedId() {
		LockEngine holder = this.clients.newService();
		LockEngine other = this.clients.newService();
		List<LockHandle> held = new ArrayList<>();
		try {
			for (String id : HOSTILE_IDS) {
				// Every id is still free: no earlier, different id took its key.
				LockHandle handle = holder.tryLock(id, Duration.ZERO, null)
					.orElseThrow(() -> new AssertionError("'" + LogSafe.text(id) + "' was locked by another id"));
				held.add(handle);
				// Read: the token is issued now, writing the fence key.
				assertThat(handle.fencingToken()).isPositive();
				assertThat(other.tryLock(id, Duration.ZERO, null)).as("'%s' locked", LogSafe.text(id)).isEmpty();
			}
			List<String> keys = redis.keys("distlock:*");
			Set<String> lockKeys = new HashSet<>();
			for (String key : keys) {
				if (!key.endsWith(":fence")) {
					lockKeys.add(key);
				}
			}
			assertThat(lockKeys).hasSize(HOSTILE_IDS.size());
			assertThat(keys).hasSize(2 * HOSTILE_IDS.size());
			for (String id : HOSTILE_IDS) {
				String key = new LockKeys("distlock:").lockKey(id);
				assertThat(keys).contains(key, LockKeys.fenceKey(key));
				// Huge ids are hashed: keys stay short.
				assertThat(key.length()).isLessThan(LockKeys.MAX_ENCODED_LENGTH + 20);
				// Redis hashes the part between the first '{' and the next '}': exactly
				// the escaped id.
				String tag = key.substring(key.indexOf('{') + 1, key.indexOf('}', key.indexOf('{') + 1));
				assertThat(tag).isEqualTo(LockKeys.encode(id));
				long slot = slot(key);
				assertThat(slot(LockKeys.fenceKey(key))).isEqualTo(slot);
				assertThat(slot(LockKeys.receiptKey(key))).isEqualTo(slot);
				assertThat(slot("{" + tag + "}")).isEqualTo(slot);
			}
		}
		finally {
			held.forEach(LockHandle::close);
		}
		assertThat(redis.keys("distlock:*")).allMatch((key) -> key.endsWith(":fence") || key.endsWith(":released"));
	}

	@Test
	void anIdCannotChooseTheSlotOfAnotherKey() {
		// "{user1000}" in an id must not land in the slot of the hash tag user1000.
		String key = new LockKeys("distlock:").lockKey("{user1000}:orders");
		assertThat(slot(key)).isEqualTo(slot("{%7Buser1000%7D:orders}"));
		assertThat(key).doesNotContain("{user1000}");
	}

	@Test
	void idsCannotForgeLogLinesAndHugeIdsAreShortened() {
		LockEngine holder = this.clients.newService();
		LockEngine other = this.clients.newService();
		String forging = "order-1\r\n12:00:00.000 [main] ERROR forged -- \u2028\u0085\u202Eline";
		String huge = "y".repeat(1_000_000);
		try (CapturedLogs logs = CapturedLogs.from(Level.DEBUG)) {
			LockHandle forged = holder.lock(forging, Duration.ZERO);
			LockHandle hugeHandle = holder.lock(huge, Duration.ZERO);
			for (String id : List.of(forging, huge)) {
				assertThatExceptionOfType(LockNotAcquiredException.class)
					.isThrownBy(() -> other.lock(id, Duration.ZERO))
					.satisfies((ex) -> {
						assertThat(ex.getLockId()).isEqualTo(id);
						assertThat(ex.getMessage()).doesNotContainPattern(LINE_BREAKING).hasSizeLessThan(300);
					});
			}
			hugeHandle.close();
			// Lost to another owner: logged at INFO, thrown at close.
			redis.command("SET", new LockKeys("distlock:").lockKey(forging), "someone-else", "PX", "60000");
			assertThat(forged.extend(Duration.ofSeconds(10))).isFalse();
			assertThatExceptionOfType(LockLostException.class).isThrownBy(forged::close)
				.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContainPattern(LINE_BREAKING));
			assertThat(logs.events()).filteredOn((event) -> event.getLoggerName().startsWith("io.github.distlock"))
				.extracting(CapturedLogs::fullText)
				.anyMatch((text) -> text.startsWith("Lost lock 'order-1\\u000d\\u000a12:00"))
				.allSatisfy((text) -> assertThat(text).doesNotContainPattern(LINE_BREAKING).hasSizeLessThan(1000));
		}
	}

	@Test
	void nullAndEmptyArgumentsFailBeforeAnythingIsLocked() {
		LockEngine service = this.clients.newService();
		assertThatIllegalArgumentException().isThrownBy(() -> service.tryLock(null, Duration.ZERO, null))
			.withMessageContaining("lockId");
		assertThatIllegalArgumentException().isThrownBy(() -> service.lock("", Duration.ZERO))
			.withMessageContaining("lockId");
		assertThatIllegalArgumentException().isThrownBy(() -> service.lock("x", null))
			.withMessageContaining("waitTime");
		assertThatIllegalArgumentException().isThrownBy(() -> service.isLocked(null)).withMessageContaining("lockId");
		try (LockHandle handle = service.lock("x", Duration.ZERO)) {
			assertThatIllegalArgumentException().isThrownBy(() -> handle.extend(null))
				.withMessageContaining("leaseTime");
			assertThatIllegalArgumentException().isThrownBy(() -> handle.close(null))
				.withMessageContaining("minHoldTime");
			// A rejected close releases nothing: the lock is still held, and closes
			// normally.
			assertThat(handle.isHeld()).isTrue();
		}
		assertThat(redis.keys("distlock:{x}")).isEmpty();
		assertThat(service.trackedLockCount()).isZero();
	}

	private static long slot(String key) {
		return Long.parseLong(clusterNode.command("CLUSTER", "KEYSLOT", key));
	}

}

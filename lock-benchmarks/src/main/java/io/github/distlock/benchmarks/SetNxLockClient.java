package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.sync.RedisScriptingCommands;
import io.lettuce.core.api.sync.RedisStringCommands;

/**
 * What the two reference locks share ({@link FloorLockClient} and
 * {@link FloorPubSubLockClient}): raw Lettuce {@code SET NX PX} with a unique token,
 * attempted again after each refusal until the wait time is over, and an owner-checked
 * delete by {@code EVALSHA} of the subclass's release script. The subclass decides only
 * what happens between a refused attempt and the next: nothing (busy retry) or waiting
 * for a release message. No renewal, no fencing, no fairness.
 */
abstract class SetNxLockClient implements LockClient {

	private static final SetArgs ACQUIRE = SetArgs.Builder.nx().px(30_000);

	private final String keyPrefix;

	private final RedisStringCommands<String, String> strings;

	private final RedisScriptingCommands<String, String> scripts;

	private final Runnable close;

	private final String releaseSha;

	private final long waitNanos;

	private final String instance = UUID.randomUUID().toString();

	private final AtomicLong tokens = new AtomicLong();

	/**
	 * @param keyPrefix what the lock ids are prefixed with, one per implementation
	 * @param commands the connection's commands, on which {@code releaseScript} is loaded
	 * @param releaseScript the owner-checked delete: {@code KEYS[1]} the lock's key,
	 * {@code ARGV[1]} the holder's token
	 * @param close closes the connections and the client
	 */
	<C extends RedisStringCommands<String, String> & RedisScriptingCommands<String, String>> SetNxLockClient(
			String keyPrefix, C commands, String releaseScript, Runnable close, Duration waitTime) {
		this.keyPrefix = keyPrefix;
		this.strings = commands;
		this.scripts = commands;
		this.close = close;
		this.releaseSha = commands.scriptLoad(releaseScript);
		this.waitNanos = waitTime.toNanos();
	}

	@Override
	public final boolean tryRunLocked(String lockId, Runnable action) {
		String key = keyPrefix + lockId;
		String token = instance + ':' + tokens.incrementAndGet();
		long start = System.nanoTime();
		long seen = releasesSeen();
		while (!"OK".equals(strings.set(key, token, ACQUIRE))) {
			if (System.nanoTime() - start > waitNanos || !awaitRelease(seen, start + waitNanos)) {
				return false;
			}
			seen = releasesSeen();
		}
		try {
			action.run();
		}
		finally {
			scripts.evalsha(releaseSha, ScriptOutputType.INTEGER, new String[] { key }, token);
		}
		return true;
	}

	/**
	 * How many releases this instance has been told of, read before each attempt, so that
	 * a release between the attempt and {@link #awaitRelease} is not missed.
	 */
	abstract long releasesSeen();

	/**
	 * Called after a refused attempt: returns when the next attempt is due, at the latest
	 * at {@code deadlineNanos} ({@link System#nanoTime()}).
	 * @param seen what {@link #releasesSeen()} returned before the refused attempt
	 * @return {@code false} if the wait was interrupted: the acquisition gives up
	 */
	abstract boolean awaitRelease(long seen, long deadlineNanos);

	@Override
	public void close() {
		close.run();
	}

}

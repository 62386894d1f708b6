package io.github.distlock.redis;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The last server time at which an acquire may still change anything ({@code notAfter},
 * see {@link LockScripts#refuseLate}): the time the acquire is sent, on the server's
 * clock as far as this client can tell without overestimating it, plus the receipt
 * retention ({@link ReceiptRetention}).
 * <p>
 * Why that bound makes a late copy harmless whatever its delay: the clean-up after an
 * acquire (a release, a withdrawal, a release after an unanswered attempt) is sent after
 * it, so the receipt it writes lives at least until the acquire's send time on the server
 * plus the retention, which is not before {@code notAfter}. A copy applied before
 * {@code notAfter} finds the receipt and is refused ({@link LockScripts#refuseEnded}); a
 * copy applied after it is refused by the time check. It holds as long as the server's
 * clock does not step back by more than the retention while a copy is in flight.
 * <p>
 * The client's clock is {@link System#nanoTime()}, so a step of the system clock changes
 * nothing. Its offset to the server's clock is measured with {@code TIME}: the server
 * read its clock before the reply arrived, so server time minus local time at the reply
 * underestimates the offset, by the reply's way back (and any pause of this JVM in
 * between), which only brings {@code notAfter} earlier. An acquire whose transit took
 * longer than the retention minus that error is answered "expired in transit", an unknown
 * outcome, and tried again.
 * <p>
 * Measured per store (not per node: the simplest choice), lazily, on the first acquire
 * (on the connection the store's template uses; on a Redis Cluster, on any node: its
 * nodes' clocks are taken to agree; each node of a quorum is a store of its own), again
 * after every "expired in transit" reply (an underestimate made during a long pause, or a
 * server whose clock is ahead, is corrected by the next attempt), and again when the last
 * measurement is {@value #REFRESH_SECONDS} s old, so that a server whose clock went
 * behind the one measured (a step back, a failover) opens a window past the receipt's
 * life for at most that long. Nothing on the hot path but a volatile read, and one round
 * trip per {@value #REFRESH_SECONDS} s of acquiring.
 */
final class AcquireDeadline {

	private static final long NANOS_PER_MILLI = 1_000_000;

	/** How old a measurement may get before the next acquire measures again. */
	static final long REFRESH_SECONDS = 10;

	/** Reads the server's clock, in ms (blocking). */
	private final LongSupplier serverMillis;

	private final long retentionMillis;

	private final long refreshNanos;

	/** The last measurement, {@code null} until measured or after an expired reply. */
	private volatile @Nullable Offset offset;

	/**
	 * @param serverMillis reads the server's clock in ms, blocking
	 * @param retentionMillis the life of a release receipt
	 */
	AcquireDeadline(LongSupplier serverMillis, long retentionMillis) {
		this(serverMillis, retentionMillis, TimeUnit.SECONDS.toNanos(REFRESH_SECONDS));
	}

	/**
	 * @param refreshNanos how old a measurement may get before the next acquire measures
	 * again
	 */
	AcquireDeadline(LongSupplier serverMillis, long retentionMillis, long refreshNanos) {
		this.serverMillis = serverMillis;
		this.retentionMillis = retentionMillis;
		this.refreshNanos = refreshNanos;
	}

	/** The deadline of the acquires on the Redis of {@code redis}. */
	static AcquireDeadline of(StringRedisTemplate redis, long retentionMillis) {
		return new AcquireDeadline(() -> serverMillis(redis), retentionMillis);
	}

	private static long serverMillis(StringRedisTemplate redis) {
		Long micros = redis.execute((RedisCallback<Long>) AcquireDeadline::serverMicros, true);
		if (micros == null) {
			throw new IllegalStateException("Redis returned no reply to TIME");
		}
		return Math.floorDiv(micros, 1000);
	}

	private static Long serverMicros(RedisConnection connection) {
		return connection.serverCommands().time(TimeUnit.MICROSECONDS);
	}

	/**
	 * {@code notAfter} of an acquire sent now, in server ms: measures the offset first if
	 * it is not known (a round trip).
	 * @throws org.springframework.dao.DataAccessException when the measurement fails
	 */
	String notAfter() {
		String notAfter = notAfterIfMeasured();
		if (notAfter != null) {
			return notAfter;
		}
		long offsetMillis = measure();
		return Long.toString(Math.floorDiv(System.nanoTime(), NANOS_PER_MILLI) + offsetMillis + this.retentionMillis);
	}

	/**
	 * {@link #notAfter()} if it needs no round trip (measured, not too long ago), else
	 * {@code null}.
	 */
	@Nullable String notAfterIfMeasured() {
		Offset last = this.offset;
		long now = System.nanoTime();
		if (last == null || now - last.measuredAtNanos() > this.refreshNanos) {
			return null;
		}
		return Long.toString(Math.floorDiv(now, NANOS_PER_MILLI) + last.millis() + this.retentionMillis);
	}

	private long measure() {
		long server = this.serverMillis.getAsLong();
		long now = System.nanoTime();
		// Rounded so that it underestimates: server ms rounded down, local ms up.
		long offsetMillis = server + Math.floorDiv(-now, NANOS_PER_MILLI);
		this.offset = new Offset(offsetMillis, now);
		return offsetMillis;
	}

	/**
	 * An acquire came back "expired in transit": the offset is measured again before the
	 * next one, in case it was underestimated or the server (its clock) changed.
	 */
	void expiredInTransit() {
		this.offset = null;
	}

	/**
	 * @param millis server ms minus local ms, a lower bound
	 * @param measuredAtNanos when it was measured ({@link System#nanoTime()})
	 */
	private record Offset(long millis, long measuredAtNanos) {

	}

}

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
 * Measured once per store, lazily, on the first acquire (on the connection the store's
 * template uses; on a Redis Cluster, on any node: its nodes' clocks are taken to agree),
 * and again after every "expired in transit" reply: a failover, or an underestimate made
 * during a long pause, is corrected by the next attempt. Nothing on the hot path but a
 * volatile read.
 */
final class AcquireDeadline {

	private static final long NOT_MEASURED = Long.MIN_VALUE;

	private static final long NANOS_PER_MILLI = 1_000_000;

	/** Reads the server's clock, in ms (blocking). */
	private final LongSupplier serverMillis;

	private final long retentionMillis;

	/** Server ms minus local ms, a lower bound; {@link #NOT_MEASURED} until measured. */
	private volatile long offsetMillis = NOT_MEASURED;

	/**
	 * @param serverMillis reads the server's clock in ms, blocking
	 * @param retentionMillis the life of a release receipt
	 */
	AcquireDeadline(LongSupplier serverMillis, long retentionMillis) {
		this.serverMillis = serverMillis;
		this.retentionMillis = retentionMillis;
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
		long offset = this.offsetMillis;
		if (offset == NOT_MEASURED) {
			offset = measure();
		}
		return Long.toString(Math.floorDiv(System.nanoTime(), NANOS_PER_MILLI) + offset + this.retentionMillis);
	}

	/**
	 * {@link #notAfter()} if it needs no round trip, else {@code null}.
	 */
	@Nullable String notAfterIfMeasured() {
		long offset = this.offsetMillis;
		return (offset != NOT_MEASURED)
				? Long.toString(Math.floorDiv(System.nanoTime(), NANOS_PER_MILLI) + offset + this.retentionMillis)
				: null;
	}

	private long measure() {
		long server = this.serverMillis.getAsLong();
		// Rounded so that it underestimates: server ms rounded down, local ms up.
		long offset = server + Math.floorDiv(-System.nanoTime(), NANOS_PER_MILLI);
		this.offsetMillis = offset;
		return offset;
	}

	/**
	 * An acquire came back "expired in transit": the offset is measured again before the
	 * next one, in case it was underestimated or the server (its clock) changed.
	 */
	void expiredInTransit() {
		this.offsetMillis = NOT_MEASURED;
	}

}

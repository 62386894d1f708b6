package io.github.distlock.sample.race;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads one instance's lock wait and hold times from its Actuator, the way an operator
 * would: {@code GET
 * /actuator/metrics/distlock.acquire?tag=name:stock&tag=outcome:acquired}, {@code GET
 * /actuator/metrics/distlock.hold?tag=name:stock} and {@code GET /actuator/locks}. The
 * numbers are the instance's own meters, passed on unchanged except for seconds to
 * milliseconds and the mean ({@code TOTAL_TIME / COUNT}).
 */
public final class LockStatsReader {

	/** The {@code @DistributedLock} name of both locked paths of the shop. */
	static final String LOCK_NAME = "stock";

	static final String WAIT_PATH = "/actuator/metrics/distlock.acquire?tag=name:" + LOCK_NAME
			+ "&tag=outcome:acquired";

	static final String HOLD_PATH = "/actuator/metrics/distlock.hold?tag=name:" + LOCK_NAME;

	static final String LOCKS_PATH = "/actuator/locks";

	/**
	 * Like the state, the dashboard's polling must not hang on an instance that stopped
	 * answering.
	 */
	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final HttpClient http;

	private final JsonMapper json;

	public LockStatsReader(HttpClient http) {
		this.http = http;
		// Actuator's answers carry more than the dashboard reads (availableTags,
		// description, ...).
		this.json = JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
	}

	/** A reader with its own HTTP client. */
	public static LockStatsReader create() {
		return new LockStatsReader(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
	}

	/**
	 * What one instance's Actuator reports about the lock {@code stock}.
	 * @param target the instance's base URL
	 * @return its wait and hold times, {@code null} each until its first acquisition, and
	 * the locks it holds
	 * @throws RaceFailedException if it does not answer or answers anything unexpected
	 */
	public LockStats read(URI target) {
		return new LockStats(timing(target, WAIT_PATH), timing(target, HOLD_PATH),
				this.json.readValue(get(target, LOCKS_PATH, false), HeldLocks.class).locks());
	}

	/**
	 * A timer's statistics; {@code null} on 404: Micrometer registers a timer with its
	 * first recording.
	 */
	private @Nullable Timing timing(URI target, String path) {
		String body = get(target, path, true);
		if (body == null) {
			return null;
		}
		Metric metric = this.json.readValue(body, Metric.class);
		if (!"seconds".equals(metric.baseUnit())) {
			throw new RaceFailedException(
					target + path + " reports its times in '" + metric.baseUnit() + "', expected 'seconds'");
		}
		double count = metric.statistic("COUNT", target + path);
		double totalSeconds = metric.statistic("TOTAL_TIME", target + path);
		double maxSeconds = metric.statistic("MAX", target + path);
		return new Timing((long) count, (count > 0) ? totalSeconds * 1000 / count : 0, maxSeconds * 1000);
	}

	private @Nullable String get(URI target, String path, boolean notFoundIsEmpty) {
		HttpRequest request = HttpRequest.newBuilder(target.resolve(path)).timeout(TIMEOUT).GET().build();
		try {
			HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() == 404 && notFoundIsEmpty) {
				return null;
			}
			if (response.statusCode() != 200) {
				throw new RaceFailedException(
						"Could not read " + target + path + ": HTTP " + response.statusCode() + " " + response.body());
			}
			return response.body();
		}
		catch (IOException ex) {
			throw new RaceFailedException("Could not read " + target + path + ": " + ex, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RaceFailedException("Interrupted while reading " + target + path, ex);
		}
	}

	/**
	 * The lock {@code stock} on one instance, since it started (locked and fenced
	 * purchases both take it).
	 *
	 * @param waitTime time to acquire it, of the acquisitions that got it; {@code null}
	 * before the first
	 * @param holdTime time from acquisition to release, released or lost; {@code null}
	 * before the first release
	 * @param held the locks this instance holds now, as {@code /actuator/locks} lists
	 * them
	 */
	public record LockStats(@Nullable Timing waitTime, @Nullable Timing holdTime, List<HeldLock> held) {
	}

	/**
	 * One Micrometer timer, as {@code /actuator/metrics} reports it.
	 *
	 * @param count recordings
	 * @param meanMillis {@code TOTAL_TIME / COUNT}, in milliseconds
	 * @param maxMillis {@code MAX} in milliseconds: Micrometer's decaying maximum, the
	 * largest recording of the last few minutes (0 once none was recorded for a while)
	 */
	public record Timing(long count, double meanMillis, double maxMillis) {
	}

	/**
	 * One lock held by an instance, the part of {@code /actuator/locks} the dashboard
	 * shows.
	 *
	 * @param name the {@code @DistributedLock} name, {@code null} for programmatic locks
	 * @param lockId the lock id
	 * @param fencingToken the fencing token of the hold
	 * @param leaseRemainingMillis how long the lease still runs unless renewed
	 */
	public record HeldLock(@Nullable String name, String lockId, long fencingToken, long leaseRemainingMillis) {
	}

	record HeldLocks(List<HeldLock> locks) {
	}

	record Metric(String name, @Nullable String baseUnit, List<Sample> measurements) {

		double statistic(String statistic, String source) {
			return this.measurements.stream()
				.filter((sample) -> sample.statistic().equals(statistic))
				.findFirst()
				.orElseThrow(() -> new RaceFailedException(source + " has no " + statistic + " measurement"))
				.value();
		}

	}

	record Sample(String statistic, double value) {
	}

}

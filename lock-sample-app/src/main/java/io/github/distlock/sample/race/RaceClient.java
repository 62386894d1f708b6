package io.github.distlock.sample.race;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Has an instance run a race against itself and its peers ({@code POST /race}), as the
 * dashboard's buttons do, and follows it with {@code GET /race/progress} meanwhile. The
 * instance keeps the result and the stock over time, so its dashboard shows the race.
 */
public final class RaceClient {

	private static final Duration POLL_INTERVAL = Duration.ofMillis(250);

	private static final Duration PROGRESS_TIMEOUT = Duration.ofSeconds(10);

	/** Above the instance's own bound on a race (five minutes) and its reads. */
	private static final Duration RACE_TIMEOUT = Duration.ofMinutes(8);

	private final HttpClient http;

	private final JsonMapper json;

	private RaceClient(HttpClient http, JsonMapper json) {
		this.http = http;
		this.json = json;
	}

	/** A client with its own HTTP client. */
	public static RaceClient create() {
		return new RaceClient(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build(),
				JsonMapper.builder().build());
	}

	/**
	 * Runs the race on {@code instance} and returns its result.
	 * @param instance base URL of the instance that runs it
	 * @param progress told what the instance reports, about every quarter second, and
	 * once more when the race has finished
	 * @throws RaceFailedException if the instance refuses or fails the race, or does not
	 * answer
	 */
	public RaceResult race(URI instance, RaceMode mode, int buyers, int stock, RaceRunner.Progress progress) {
		URI uri = instance.resolve("/race?mode=" + mode.code() + "&buyers=" + buyers + "&stock=" + stock);
		HttpRequest request = HttpRequest.newBuilder(uri)
			.timeout(RACE_TIMEOUT)
			.POST(HttpRequest.BodyPublishers.noBody())
			.build();
		CompletableFuture<HttpResponse<String>> reply = this.http.sendAsync(request,
				HttpResponse.BodyHandlers.ofString());
		HttpResponse<String> response;
		try {
			response = await(reply, instance, mode, progress);
		}
		catch (InterruptedException ex) {
			reply.cancel(true);
			Thread.currentThread().interrupt();
			throw new RaceFailedException("Interrupted while racing on " + instance, ex);
		}
		if (response.statusCode() != 200) {
			throw new RaceFailedException(
					"The race on " + instance + " failed: HTTP " + response.statusCode() + " " + response.body());
		}
		RaceResult result = this.json.readValue(response.body(), RaceResult.class);
		progress.update(RaceProgress.finished(result));
		return result;
	}

	private HttpResponse<String> await(CompletableFuture<HttpResponse<String>> reply, URI instance, RaceMode mode,
			RaceRunner.Progress progress) throws InterruptedException {
		while (true) {
			try {
				return reply.get(POLL_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (TimeoutException ex) {
				RaceProgress now = progress(instance);
				if (now != null && now.mode() == mode) {
					progress.update(now);
				}
			}
			catch (ExecutionException ex) {
				throw new RaceFailedException("Could not run the race on " + instance + ": " + ex.getCause(),
						ex.getCause());
			}
		}
	}

	/**
	 * What {@code GET /race/progress} reports, or {@code null} when the instance runs no
	 * race or is too busy to say: progress is shown on a best-effort basis.
	 */
	private @Nullable RaceProgress progress(URI instance) throws InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(instance.resolve("/race/progress"))
			.timeout(PROGRESS_TIMEOUT)
			.GET()
			.build();
		try {
			HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
			return (response.statusCode() == 200) ? this.json.readValue(response.body(), RaceProgress.class) : null;
		}
		catch (IOException | JacksonException ex) {
			return null;
		}
	}

}

package io.github.distlock.sample.race;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

import io.github.distlock.sample.shop.Inventory;
import io.github.distlock.sample.shop.ProductState;
import io.github.distlock.sample.shop.PurchaseOutcome;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sends {@code buyers} concurrent purchases, round-robin over the instances, like the
 * article's JMeter run: every buyer thread is started and waiting before one signal
 * releases them all. Only HTTP, so it runs in the demo launcher as well as inside an
 * instance for the dashboard.
 */
public final class RaceRunner {

	/** Upper bound of buyers: one thread each. */
	public static final int MAX_BUYERS = 1_000;

	private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(2);

	private static final Duration RACE_TIMEOUT = Duration.ofMinutes(5);

	/**
	 * Reading the state must not hang the dashboard's polling on an instance that stopped
	 * answering.
	 */
	private static final Duration STATE_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration PROGRESS_INTERVAL = Duration.ofMillis(250);

	private final HttpClient http;

	private final JsonMapper json;

	public RaceRunner(HttpClient http, JsonMapper json) {
		this.http = http;
		this.json = json;
	}

	/** A runner with its own HTTP client. */
	public static RaceRunner create() {
		return new RaceRunner(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build(),
				JsonMapper.builder().build());
	}

	/**
	 * Resets the stock on the instances, runs the race and reads what it left.
	 * @param targets base URLs of the instances, buyer {@code i} goes to
	 * {@code targets[i % size]}
	 * @param progress told when the buyers are released, about every quarter second while
	 * some are outstanding, and once all are answered
	 * @throws IllegalArgumentException if {@code buyers}, {@code stock} or
	 * {@code targets} is out of range
	 * @throws RaceFailedException if an instance cannot be reset or read, or the race
	 * does not finish in time
	 */
	public RaceResult run(RaceMode mode, List<URI> targets, int buyers, int stock, Progress progress) {
		if (targets.isEmpty()) {
			throw new IllegalArgumentException("targets must name at least one instance");
		}
		if (buyers < 1 || buyers > MAX_BUYERS) {
			throw new IllegalArgumentException("buyers must be between 1 and " + MAX_BUYERS + ", was " + buyers);
		}
		if (stock < 0 || stock > Inventory.MAX_AMOUNT) {
			throw new IllegalArgumentException(
					"stock must be between 0 and " + Inventory.MAX_AMOUNT + ", was " + stock);
		}
		for (URI target : targets) {
			send(post(target.resolve("/product/reset?amount=" + stock)), "reset " + target);
		}
		AtomicIntegerArray boughtPerTarget = new AtomicIntegerArray(targets.size());
		AtomicInteger soldOut = new AtomicInteger();
		AtomicInteger rejected = new AtomicInteger();
		AtomicInteger failed = new AtomicInteger();
		AtomicReference<@Nullable String> firstFailure = new AtomicReference<>();
		CountDownLatch ready = new CountDownLatch(buyers);
		CountDownLatch go = new CountDownLatch(1);
		CountDownLatch answered = new CountDownLatch(buyers);
		ExecutorService pool = Executors.newFixedThreadPool(buyers, (task) -> {
			Thread thread = new Thread(task, "race-buyer");
			thread.setDaemon(true);
			return thread;
		});
		try {
			for (int i = 0; i < buyers; i++) {
				int targetIndex = i % targets.size();
				URI uri = targets.get(targetIndex)
					.resolve("/product/buy?lock=" + mode.code() + "&buyer=buyer-" + (i + 1));
				pool.execute(() -> {
					try {
						ready.countDown();
						go.await();
						HttpResponse<String> response = this.http.send(get(uri), HttpResponse.BodyHandlers.ofString());
						if (response.statusCode() != 200) {
							throw new IOException(
									"HTTP " + response.statusCode() + " from " + uri + ": " + response.body());
						}
						switch (PurchaseOutcome.valueOf(response.body().trim())) {
							case BOUGHT -> boughtPerTarget.incrementAndGet(targetIndex);
							case SOLD_OUT -> soldOut.incrementAndGet();
							case REJECTED_STALE -> rejected.incrementAndGet();
						}
					}
					catch (Exception ex) {
						if (ex instanceof InterruptedException) {
							Thread.currentThread().interrupt();
						}
						failed.incrementAndGet();
						firstFailure.compareAndSet(null, ex.toString());
					}
					finally {
						answered.countDown();
					}
				});
			}
			await(ready, Duration.ofMinutes(1), "the buyer threads to start");
			List<StockSample> samples = new ArrayList<>();
			samples.add(new StockSample(0, stock));
			progress.update(new RaceProgress(mode, mode.label(), 0, buyers, stock, 0, List.copyOf(samples)));
			long started = System.nanoTime();
			go.countDown();
			long deadline = started + RACE_TIMEOUT.toNanos();
			while (!answered.await(PROGRESS_INTERVAL.toMillis(), TimeUnit.MILLISECONDS)) {
				if (System.nanoTime() > deadline) {
					throw new RaceFailedException(answered.getCount() + " of " + buyers
							+ " buyers were not answered within " + RACE_TIMEOUT.toSeconds() + "s");
				}
				progressUpdate(progress, mode, buyers - (int) answered.getCount(), buyers, targets.get(0), started,
						samples);
			}
			long elapsedMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();
			// The result must be read, however busy the instance is: the buyers' own
			// timeout applies.
			ProductState after = state(targets.get(0), REQUEST_TIMEOUT);
			samples.add(new StockSample(elapsedMillis, after.amount()));
			progress.update(new RaceProgress(mode, mode.label(), buyers, buyers, after.amount(), after.purchases(),
					List.copyOf(samples)));
			List<RaceResult.InstanceTally> tallies = new ArrayList<>();
			int bought = 0;
			for (int i = 0; i < targets.size(); i++) {
				tallies.add(new RaceResult.InstanceTally(targets.get(i).toString(), boughtPerTarget.get(i)));
				bought += boughtPerTarget.get(i);
			}
			return RaceResult.of(mode, buyers, stock, after.amount(), after.purchases(), bought, soldOut.get(),
					rejected.get(), failed.get(), tallies, elapsedMillis, samples, firstFailure.get());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RaceFailedException("Interrupted while racing", ex);
		}
		finally {
			pool.shutdownNow();
		}
	}

	/**
	 * Progress is shown on a best-effort basis: an instance too busy to answer within
	 * {@link #STATE_TIMEOUT} while 200 buyers hit it skips one update (and one point of
	 * the chart) instead of failing the race.
	 */
	private void progressUpdate(Progress progress, RaceMode mode, int answered, int buyers, URI target, long started,
			List<StockSample> samples) {
		ProductState now;
		try {
			now = state(target);
		}
		catch (RaceFailedException ex) {
			return;
		}
		samples.add(new StockSample(Duration.ofNanos(System.nanoTime() - started).toMillis(), now.amount()));
		progress.update(new RaceProgress(mode, mode.label(), answered, buyers, now.amount(), now.purchases(),
				List.copyOf(samples)));
	}

	/** What one instance reports, read with {@code GET /product/state}. */
	public ProductState state(URI target) {
		return state(target, STATE_TIMEOUT);
	}

	private ProductState state(URI target, Duration timeout) {
		HttpRequest request = HttpRequest.newBuilder(target.resolve("/product/state")).timeout(timeout).GET().build();
		String body = send(request, "read the state of " + target);
		return this.json.readValue(body, ProductState.class);
	}

	private String send(HttpRequest request, String what) {
		try {
			HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() != 200) {
				throw new RaceFailedException(
						"Could not " + what + ": HTTP " + response.statusCode() + " " + response.body());
			}
			return response.body();
		}
		catch (IOException ex) {
			throw new RaceFailedException("Could not " + what + ": " + ex, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RaceFailedException("Interrupted while trying to " + what, ex);
		}
	}

	private static HttpRequest get(URI uri) {
		return HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT).GET().build();
	}

	private static HttpRequest post(URI uri) {
		return HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT).POST(HttpRequest.BodyPublishers.noBody()).build();
	}

	private static void await(CountDownLatch latch, Duration timeout, String what) throws InterruptedException {
		if (!latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new RaceFailedException("Timed out after " + timeout.toSeconds() + "s waiting for " + what);
		}
	}

	/**
	 * Told while a race runs.
	 */
	@FunctionalInterface
	public interface Progress {

		Progress NONE = (progress) -> {
		};

		/**
		 * @param progress where the race stands, the first instance's view of the stock
		 * included
		 */
		void update(RaceProgress progress);

	}

}

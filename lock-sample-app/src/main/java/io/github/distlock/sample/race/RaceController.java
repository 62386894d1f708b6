package io.github.distlock.sample.race;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

import io.github.distlock.sample.SampleProperties;
import io.github.distlock.sample.shop.ProductController;
import io.github.distlock.sample.shop.ProductState;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.Environment;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The dashboard's endpoints: run a race from this instance against itself and its peers,
 * where the running race stands, the last result per mode (with its stock over time), and
 * every instance's view of the stock. A race started with {@code POST /race} from
 * anywhere (the dashboard's buttons, the demo launcher, curl) shows on the dashboard.
 */
@RestController
class RaceController {

	private final RaceRunner runner;

	private final LockStatsReader lockStats;

	private final SampleProperties properties;

	private final Environment environment;

	/** One race at a time per instance: two would reset each other's stock. */
	private final ReentrantLock racing = new ReentrantLock();

	private final Map<RaceMode, RaceResult> lastResults = new ConcurrentHashMap<>();

	private final AtomicReference<@Nullable RaceProgress> running = new AtomicReference<>();

	RaceController(SampleProperties properties, Environment environment) {
		this.runner = RaceRunner.create();
		this.lockStats = LockStatsReader.create();
		this.properties = properties;
		this.environment = environment;
	}

	@PostMapping("/race")
	ResponseEntity<?> race(@RequestParam(name = "mode") String mode,
			@RequestParam(name = "buyers", defaultValue = "200") int buyers,
			@RequestParam(name = "stock", defaultValue = "" + ProductController.INITIAL_STOCK) int stock) {
		RaceMode raceMode = RaceMode.fromCode(mode);
		if (!this.racing.tryLock()) {
			return ResponseEntity.status(HttpStatus.CONFLICT)
				.contentType(MediaType.TEXT_PLAIN)
				.body("A race is already running on this instance");
		}
		try {
			RaceResult result = this.runner.run(raceMode, targets(), buyers, stock, this.running::set);
			this.lastResults.put(raceMode, result);
			return ResponseEntity.ok(result);
		}
		finally {
			this.running.set(null);
			this.racing.unlock();
		}
	}

	/**
	 * Where the race this instance runs now stands, with its stock so far; 204 when it
	 * runs none.
	 */
	@GetMapping("/race/progress")
	ResponseEntity<RaceProgress> progress() {
		RaceProgress progress = this.running.get();
		return (progress != null) ? ResponseEntity.ok(progress) : ResponseEntity.noContent().build();
	}

	/** The last result of each mode run from this instance, in mode order. */
	@GetMapping("/race/results")
	List<RaceResult> results() {
		List<RaceResult> results = new ArrayList<>();
		for (RaceMode mode : RaceMode.values()) {
			RaceResult result = this.lastResults.get(mode);
			if (result != null) {
				results.add(result);
			}
		}
		return results;
	}

	/**
	 * Every instance's view of the stock and its lock wait and hold times; an instance
	 * that does not answer is reported as down. The dashboard is served by one instance
	 * but shows all of them: this instance reads its peers' {@code /product/state} and
	 * Actuator server-side, so the browser talks to one origin only (no CORS
	 * configuration on the Actuator) and sees exactly what each instance reported.
	 */
	@GetMapping("/cluster")
	List<InstanceView> cluster() {
		List<InstanceView> views = new ArrayList<>();
		List<URI> targets = targets();
		for (int i = 0; i < targets.size(); i++) {
			URI target = targets.get(i);
			ProductState state;
			try {
				state = this.runner.state(target);
			}
			catch (RuntimeException ex) {
				views.add(new InstanceView(target.toString(), i == 0, false, null, ex.getMessage(), null, null));
				continue;
			}
			try {
				views.add(new InstanceView(target.toString(), i == 0, true, state, null, this.lockStats.read(target),
						null));
			}
			catch (RuntimeException ex) {
				views.add(new InstanceView(target.toString(), i == 0, true, state, null, null, ex.getMessage()));
			}
		}
		return views;
	}

	@ExceptionHandler(IllegalArgumentException.class)
	ResponseEntity<String> badRequest(IllegalArgumentException ex) {
		return ResponseEntity.badRequest().contentType(MediaType.TEXT_PLAIN).body(ex.getMessage());
	}

	@ExceptionHandler(RaceFailedException.class)
	ResponseEntity<String> raceFailed(RaceFailedException ex) {
		return ResponseEntity.status(HttpStatus.BAD_GATEWAY).contentType(MediaType.TEXT_PLAIN).body(ex.getMessage());
	}

	/** This instance first, then its peers. */
	private List<URI> targets() {
		List<URI> targets = new ArrayList<>();
		targets.add(URI.create("http://127.0.0.1:" + this.environment.getRequiredProperty("local.server.port")));
		targets.addAll(this.properties.getPeers());
		return targets;
	}

	/**
	 * One instance on the dashboard.
	 *
	 * @param url its base URL
	 * @param self whether it is the instance serving the dashboard
	 * @param up whether it answered
	 * @param state what it reported
	 * @param error why it did not answer
	 * @param locks what its Actuator reported about the lock {@code stock}
	 * @param locksError why its Actuator could not be read
	 */
	record InstanceView(String url, boolean self, boolean up, @Nullable ProductState state, @Nullable String error,
			LockStatsReader.@Nullable LockStats locks, @Nullable String locksError) {
	}

}

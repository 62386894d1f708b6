package io.github.distlock.sample.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One application instance running as its own JVM process, with its output in a log file.
 */
final class InstanceProcess {

	private static final Duration READY_POLL_INTERVAL = Duration.ofMillis(250);

	private static final Duration GRACEFUL_STOP_TIMEOUT = Duration.ofSeconds(20);

	private static final Duration KILL_TIMEOUT = Duration.ofSeconds(10);

	private final String name;

	private final URI url;

	private final Path logFile;

	private final Process process;

	private InstanceProcess(String name, URI url, Path logFile, Process process) {
		this.name = name;
		this.url = url;
		this.logFile = logFile;
		this.process = process;
	}

	/**
	 * Starts {@code command} with the instance's arguments appended.
	 */
	static InstanceProcess start(String name, int port, List<String> command, List<String> arguments, Path logFile) {
		List<String> full = new ArrayList<>(command);
		full.add("--server.port=" + port);
		full.add("--sample.instance-name=" + name);
		full.addAll(arguments);
		ProcessBuilder builder = new ProcessBuilder(full).redirectErrorStream(true).redirectOutput(logFile.toFile());
		try {
			return new InstanceProcess(name, URI.create("http://127.0.0.1:" + port), logFile, builder.start());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start " + name + " with " + full, ex);
		}
	}

	String name() {
		return this.name;
	}

	URI url() {
		return this.url;
	}

	Path logFile() {
		return this.logFile;
	}

	/**
	 * Waits until the instance reports itself healthy (database and Redis reachable).
	 * @throws IllegalStateException with the end of its log if it exits or is not ready
	 * in time
	 */
	void awaitReady(HttpClient http, Duration timeout) throws InterruptedException {
		HttpRequest health = HttpRequest.newBuilder(this.url.resolve("/actuator/health"))
			.timeout(Duration.ofSeconds(5))
			.build();
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (!this.process.isAlive()) {
				throw new IllegalStateException(this.name + " exited with code " + this.process.exitValue()
						+ " while starting; end of " + this.logFile + ":\n" + logTail(40));
			}
			try {
				HttpResponse<String> response = http.send(health, HttpResponse.BodyHandlers.ofString());
				if (response.statusCode() == 200 && response.body().contains("\"UP\"")) {
					return;
				}
			}
			catch (IOException ex) {
				// Not listening yet.
			}
			Thread.sleep(READY_POLL_INTERVAL.toMillis());
		}
		throw new IllegalStateException(this.name + " was not healthy at " + this.url + " after " + timeout.toSeconds()
				+ "s; end of " + this.logFile + ":\n" + logTail(40));
	}

	/** Asks the JVM to shut down gracefully, then kills it if it does not. */
	void stop() {
		if (!this.process.isAlive()) {
			return;
		}
		this.process.destroy();
		try {
			if (!this.process.waitFor(GRACEFUL_STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				this.process.destroyForcibly().waitFor(KILL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	String logTail(int lines) {
		try {
			List<String> all = Files.readAllLines(this.logFile, StandardCharsets.UTF_8);
			return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
		}
		catch (IOException | UncheckedIOException ex) {
			return "(could not read " + this.logFile + ": " + ex + ")";
		}
	}

}

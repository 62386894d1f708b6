package io.github.distlock.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Redis version a topology needs, checked against the {@code redis-server} that
 * {@link RedisServer#binary()} resolves (which, without one on the {@code PATH}, is the
 * bundled 6.2). Where it is too old, starting the topology fails with a message naming
 * the binary and what to install; the JUnit extensions skip their test class instead,
 * unless {@code CI=true}, where a skip would hide that the tests never ran. Free of
 * JUnit, like everything here the benchmarks load.
 */
final class RedisVersionRequirement {

	private static final Pattern VERSION = Pattern.compile("v=(\\d+)\\.(\\d+)\\.(\\d+)");

	private static final Map<Path, String> VERSIONS = new ConcurrentHashMap<>();

	private static final long VERSION_TIMEOUT_SECONDS = 10;

	private final String topology;

	private final int major;

	private final String why;

	/**
	 * @param topology what needs it, e.g. "RedisCluster"
	 * @param major the oldest major version that works
	 * @param why what it uses of that version
	 */
	RedisVersionRequirement(String topology, int major, String why) {
		this.topology = topology;
		this.major = major;
		this.why = why;
	}

	/** What is missing, or empty if the resolved {@code redis-server} is new enough. */
	Optional<String> missing() {
		Path binary = RedisServer.binary();
		String version = VERSIONS.computeIfAbsent(binary, RedisVersionRequirement::askVersion);
		if (Integer.parseInt(version.substring(0, version.indexOf('.'))) >= major) {
			return Optional.empty();
		}
		return Optional.of(topology + " needs redis-server " + major + ".0 or newer (" + why + "), but " + binary
				+ " is " + version);
	}

	/**
	 * @throws RedisServerException if the resolved {@code redis-server} is too old
	 */
	void check() {
		missing().ifPresent(missing -> {
			throw new RedisServerException(missing + "; " + install());
		});
	}

	/**
	 * Why a test needing it is skipped: what is missing and what to install.
	 * @throws RedisServerException instead with {@code CI=true}, where a skip would hide
	 * that the test never ran
	 */
	String skipReason(String missing) {
		if ("true".equals(System.getenv("CI"))) {
			throw new RedisServerException("CI=true, so this test must run, but " + missing + "; " + install());
		}
		return "Skipped: " + missing + ". To run this test, " + install()
				+ ". With CI=true it fails instead of skipping.";
	}

	private String install() {
		return "install Redis " + major + " (e.g. the Debian or Ubuntu package redis-server, or redis.io's packages)"
				+ " so that redis-server on the PATH is that version, or point -D" + RedisBinary.BINARY_PATH_PROPERTY
				+ " at one";
	}

	private static String askVersion(Path binary) {
		try {
			Process process = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
			process.getOutputStream().close();
			if (!process.waitFor(VERSION_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new RedisServerException(
						binary + " --version did not answer within " + VERSION_TIMEOUT_SECONDS + " s");
			}
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			Matcher version = VERSION.matcher(output);
			if (!version.find()) {
				throw new RedisServerException("Cannot read a version from " + binary + " --version: " + output.trim());
			}
			return version.group(1) + "." + version.group(2) + "." + version.group(3);
		}
		catch (IOException e) {
			throw new RedisServerException("Could not run " + binary + " --version", e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new RedisServerException("Interrupted while asking " + binary + " for its version", e);
		}
	}

}

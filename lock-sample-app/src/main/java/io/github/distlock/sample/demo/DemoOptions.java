package io.github.distlock.sample.demo;

import java.nio.file.Path;

import io.github.distlock.sample.race.RaceRunner;
import io.github.distlock.sample.shop.Inventory;
import org.jspecify.annotations.Nullable;

/**
 * The demo's command-line options.
 *
 * @param keepRunning keep the instances running after the races, until Ctrl-C
 * @param instances how many instances to start
 * @param buyers concurrent buyers per race
 * @param stock stock before each race
 * @param redis the Redis to use, or {@code null} for the default address or a started one
 * @param startRedis start a {@code redis-server} for the demo even if one answers at the
 * default address
 * @param jar the application jar to start instances from, or {@code null} for this JVM's
 * own
 * @param workDirectory where instance logs go, or {@code null} for a new temporary
 * directory
 * @param help print the usage and do nothing else
 */
record DemoOptions(boolean keepRunning, int instances, int buyers, int stock, @Nullable RedisAddress redis,
		boolean startRedis, @Nullable Path jar, @Nullable Path workDirectory, boolean help) {

	static final String USAGE = """
			Usage: java -jar lock-sample-app.jar --demo [options]
			  --keep-running      keep the instances up after the races and print the dashboard URL (Ctrl-C stops)
			  --instances=N       application instances, each its own JVM (default 2)
			  --buyers=N          concurrent buyers per race (default 200)
			  --stock=N           apples in stock before each race (default 100)
			  --redis=HOST:PORT   Redis to use (default: localhost:6379 if it answers, else a redis-server started here)
			  --redis=start       start a redis-server for the demo (on a free port) even if localhost:6379 answers
			  --jar=PATH          application jar to start the instances from (default: this one)
			  --work-dir=PATH     where instance logs go (default: a new temporary directory)
			  --help              print this""";

	/**
	 * Parses the arguments after (or around) {@code --demo}.
	 * @throws IllegalArgumentException naming the option that is unknown or malformed
	 */
	static DemoOptions parse(String[] args) {
		boolean keepRunning = false;
		boolean help = false;
		int instances = 2;
		int buyers = 200;
		int stock = 100;
		RedisAddress redis = null;
		boolean startRedis = false;
		Path jar = null;
		Path workDirectory = null;
		for (String arg : args) {
			String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
			String value = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : null;
			switch (name) {
				case DemoCommand.FLAG -> {
				}
				case "--keep-running" -> keepRunning = true;
				case "--help" -> help = true;
				case "--instances" -> instances = number(name, value, 1, DemoCluster.Settings.MAX_INSTANCES);
				case "--buyers" -> buyers = number(name, value, 1, RaceRunner.MAX_BUYERS);
				case "--stock" -> stock = number(name, value, 0, Inventory.MAX_AMOUNT);
				case "--redis" -> {
					startRedis = "start".equals(value);
					redis = startRedis ? null : RedisAddress.parse(required(name, value), name);
				}
				case "--jar" -> jar = Path.of(required(name, value));
				case "--work-dir" -> workDirectory = Path.of(required(name, value));
				default -> throw new IllegalArgumentException("Unknown option '" + arg + "'");
			}
		}
		return new DemoOptions(keepRunning, instances, buyers, stock, redis, startRedis, jar, workDirectory, help);
	}

	private static String required(String name, @Nullable String value) {
		if (value == null || value.isBlank()) {
			throw new IllegalArgumentException(name + " needs a value: " + name + "=...");
		}
		return value;
	}

	private static int number(String name, @Nullable String value, int min, int max) {
		String text = required(name, value);
		int number;
		try {
			number = Integer.parseInt(text);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException(name + " must be a whole number, was '" + text + "'");
		}
		if (number < min || number > max) {
			throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", was " + number);
		}
		return number;
	}

}

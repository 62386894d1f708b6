package io.github.distlock.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.github.distlock.testsupport.RedisServer;

/**
 * The least-privilege ACL exactly as the docs give it: the {@code ACL SETUSER} lines of
 * the "Least-privilege Redis user (ACL)" section of {@code docs/operations.md}, read from
 * the page itself so that a test of them proves what users copy.
 */
final class ReadmeAcl {

	/** The page with the ACL, relative to the repository's root. */
	static final String PAGE = "docs/operations.md";

	static final String SECTION = "## Least-privilege Redis user (ACL)";

	static final String USER = "locker";

	/** The documented password, {@code >secret}. */
	static final String PASSWORD = "secret";

	private ReadmeAcl() {
	}

	/**
	 * The documented {@code ACL SETUSER} commands, in order: the first for every Redis,
	 * the second what a Redis Cluster needs in addition.
	 */
	static List<List<String>> commands() {
		String readme = readme();
		int start = readme.indexOf(SECTION);
		int end = readme.indexOf("\n## ", start + SECTION.length());
		List<List<String>> commands = new ArrayList<>();
		for (String line : readme.substring(start, (end < 0) ? readme.length() : end).split("\n")) {
			if (line.startsWith("ACL SETUSER " + USER + " ")) {
				commands.add(List.of(line.trim().split("\\s+")));
			}
		}
		if (commands.size() != 2) {
			throw new IllegalStateException(PAGE + "'s section '" + SECTION + "' should have two lines 'ACL SETUSER "
					+ USER + " ...' (every Redis, then a cluster's" + " additions), but has " + commands.size() + ": "
					+ commands);
		}
		return commands;
	}

	/**
	 * Creates the user on {@code node} anew with {@code commands}, as an operator would
	 * paste them, and empties the node's {@code ACL LOG}.
	 */
	static void create(RedisServer node, List<List<String>> commands) {
		node.command("ACL", "DELUSER", USER);
		for (List<String> command : commands) {
			node.command(command.toArray(String[]::new));
		}
		node.command("ACL", "LOG", "RESET");
	}

	/**
	 * What {@code node} denied since {@link #create}: the {@code object} of every
	 * {@code ACL LOG} entry (a command such as {@code config|get}, a key or a channel).
	 */
	static List<String> denied(RedisServer node) {
		List<String> log = List.of(node.command("ACL", "LOG").split("\n"));
		List<String> objects = new ArrayList<>();
		for (int i = 0; i + 1 < log.size(); i++) {
			if (log.get(i).equals("object")) {
				objects.add(log.get(i + 1));
			}
		}
		return objects;
	}

	/**
	 * How {@code ACL LOG} on {@code node} names a denied {@code command} such as
	 * {@code config|get}: so from Redis 7 on; Redis 6.2 names the command alone
	 * ({@code config}).
	 */
	static String loggedAs(RedisServer node, String command) {
		String version = node.command("INFO", "server")
			.lines()
			.filter((line) -> line.startsWith("redis_version:"))
			.findFirst()
			.orElseThrow()
			.substring("redis_version:".length())
			.trim();
		boolean beforeRedis7 = Integer.parseInt(version.substring(0, version.indexOf('.'))) < 7;
		return (beforeRedis7 && command.contains("|")) ? command.substring(0, command.indexOf('|')) : command;
	}

	/**
	 * The first {@code docs/operations.md} with the section, from the working directory
	 * up.
	 */
	private static String readme() {
		try {
			for (Path directory = Path.of("").toAbsolutePath(); directory != null; directory = directory.getParent()) {
				Path readme = directory.resolve(PAGE);
				if (Files.isRegularFile(readme) && Files.readString(readme).contains(SECTION)) {
					return Files.readString(readme);
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		throw new IllegalStateException(
				"no " + PAGE + " with a section '" + SECTION + "' in " + Path.of("").toAbsolutePath() + " or above");
	}

}

package io.github.distlock.testsupport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link RedisServer.Builder} has been told, checked as it is set, and the
 * command-line flags that follow from it.
 */
final class RedisServerSettings {

	/** {@code null} for a free port. */
	private Integer port;

	private boolean persistence;

	private RedisServer primary;

	private String primaryPassword;

	private String password;

	private Path configFile;

	private final List<String> extraFlags = new ArrayList<>();

	Integer port() {
		return port;
	}

	boolean persistence() {
		return persistence;
	}

	String password() {
		return password;
	}

	Path configFile() {
		return configFile;
	}

	void port(int port) {
		if (port < 1 || port > 65535) {
			throw new IllegalArgumentException("port must be 1..65535, was " + port);
		}
		if (port == RedisProcess.DEVELOPER_REDIS_PORT) {
			throw new IllegalArgumentException("port 6379 is reserved for a developer's own Redis; pick another");
		}
		this.port = port;
	}

	void persistence(boolean on) {
		this.persistence = on;
	}

	void replicaOf(RedisServer primary, String primaryPassword) {
		this.primary = primary;
		this.primaryPassword = primaryPassword;
	}

	void arg(String name, String... values) {
		Objects.requireNonNull(name, "name");
		String bareName = name.replaceFirst("^--", "");
		if (bareName.isBlank()) {
			throw new IllegalArgumentException("flag name must not be blank");
		}
		extraFlags.add("--" + bareName);
		for (String value : values) {
			extraFlags.add(Objects.requireNonNull(value, "flag value"));
		}
	}

	void aclUser(String name, String password, String... rules) {
		if (name == null || name.isBlank() || name.equals("default")) {
			throw new IllegalArgumentException("ACL user name must be non-blank and not 'default', was " + name);
		}
		if (password == null || password.isEmpty()) {
			throw new IllegalArgumentException("password of ACL user '" + name + "' must not be empty");
		}
		// "resetchannels" too: before Redis 7, "reset" grants all channels.
		List<String> values = new ArrayList<>(List.of(name, "reset", "resetchannels", "on", ">" + password));
		values.addAll(List.of(rules));
		arg("user", values.toArray(String[]::new));
	}

	void configFile(Path file) {
		this.configFile = Objects.requireNonNull(file, "file").toAbsolutePath();
	}

	void requirePassword(String password) {
		if (password == null || password.isEmpty()) {
			throw new IllegalArgumentException("password must not be empty");
		}
		this.password = password;
	}

	/**
	 * Every command-line flag except {@code --port}, for a server in {@code directory}.
	 */
	List<String> flags(Path directory) {
		List<String> flags = new ArrayList<>(List.of("--bind", RedisServer.LOOPBACK, "--protected-mode", "no",
				"--daemonize", "no", "--logfile", directory.resolve(RedisDirectory.LOG_FILE_NAME).toString(), "--dir",
				directory.toString(), "--save", "",
				// Redis 7 otherwise waits 5 s for more replicas before a full
				// sync; tests want it now.
				"--repl-diskless-sync-delay", "0"));
		if (persistence) {
			flags.addAll(List.of("--appendonly", "yes", "--appendfsync", "always"));
		}
		else {
			flags.addAll(List.of("--appendonly", "no"));
		}
		if (primary != null) {
			flags.addAll(List.of("--replicaof", primary.host(), Integer.toString(primary.port())));
			if (primaryPassword != null) {
				flags.addAll(List.of("--masterauth", primaryPassword));
			}
		}
		if (password != null) {
			flags.addAll(List.of("--requirepass", password));
		}
		flags.addAll(extraFlags);
		return flags;
	}

}

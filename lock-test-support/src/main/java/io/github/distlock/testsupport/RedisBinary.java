package io.github.distlock.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;

/** Finds the {@code redis-server} executable that {@link RedisServer} runs. */
final class RedisBinary {

	/** Forces this path; wins over everything else. */
	static final String BINARY_PATH_PROPERTY = "distlock.redis.binary";

	/**
	 * When {@code true}, skips the PATH lookup and uses the binary bundled in the
	 * embedded-redis jar.
	 */
	static final String PREFER_EMBEDDED_PROPERTY = "distlock.redis.preferEmbedded";

	static final String EMBEDDED_RESOURCE = "redis-server-6.2.6-v5-linux-amd64";

	private static final String EXECUTABLE_NAME = "redis-server";

	/**
	 * Extracted once per JVM; the on-disk copy is shared by every JVM using the same jar.
	 */
	private static Path extractedEmbeddedBinary;

	private RedisBinary() {
	}

	static Path resolve() {
		String forcedPath = System.getProperty(BINARY_PATH_PROPERTY);
		if (forcedPath != null && !forcedPath.isBlank()) {
			Path forced = Path.of(forcedPath);
			if (!Files.isRegularFile(forced) || !Files.isExecutable(forced)) {
				throw new RedisServerException(
						"-D" + BINARY_PATH_PROPERTY + "=" + forcedPath + " is not an executable file");
			}
			return forced;
		}
		if (!Boolean.getBoolean(PREFER_EMBEDDED_PROPERTY)) {
			Optional<Path> onPath = findOnPath();
			if (onPath.isPresent()) {
				return onPath.get();
			}
		}
		return embedded();
	}

	static boolean embeddedBinaryRunsHere() {
		String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
		String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
		return os.contains("linux") && (arch.equals("amd64") || arch.equals("x86_64"));
	}

	private static Optional<Path> findOnPath() {
		String path = System.getenv("PATH");
		if (path == null) {
			return Optional.empty();
		}
		for (String directory : path.split(File.pathSeparator)) {
			if (directory.isBlank()) {
				continue;
			}
			Path candidate = Path.of(directory, EXECUTABLE_NAME);
			if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
				return Optional.of(candidate);
			}
		}
		return Optional.empty();
	}

	private static synchronized Path embedded() {
		if (extractedEmbeddedBinary != null && Files.isExecutable(extractedEmbeddedBinary)) {
			return extractedEmbeddedBinary;
		}
		if (!embeddedBinaryRunsHere()) {
			throw new RedisServerException("No " + EXECUTABLE_NAME + " on the PATH, and the embedded one only runs on"
					+ " linux-amd64 (this is " + System.getProperty("os.name") + "/" + System.getProperty("os.arch")
					+ "). Install Redis or set -D" + BINARY_PATH_PROPERTY + "=/path/to/redis-server");
		}
		URL resource = RedisBinary.class.getClassLoader().getResource(EMBEDDED_RESOURCE);
		if (resource == null) {
			throw new RedisServerException("No " + EXECUTABLE_NAME + " on the PATH, and " + EMBEDDED_RESOURCE
					+ " is not on the classpath (is com.github.codemonstur:embedded-redis missing?)");
		}
		try {
			extractedEmbeddedBinary = extract(resource);
			return extractedEmbeddedBinary;
		}
		catch (IOException e) {
			throw new RedisServerException("Could not extract " + EMBEDDED_RESOURCE + " from " + resource, e);
		}
	}

	private static Path extract(URL resource) throws IOException {
		URLConnection connection = resource.openConnection();
		long size = connection.getContentLengthLong();
		// The jar's location and the entry's size identify the binary without reading 10
		// MB to hash it.
		Path directory = Path.of(System.getProperty("java.io.tmpdir"),
				"distlock-redis-" + shortHash(resource.toExternalForm() + "#" + size));
		Path target = directory.resolve(EXECUTABLE_NAME);
		if (Files.isRegularFile(target) && Files.isExecutable(target) && Files.size(target) == size) {
			return target;
		}
		Files.createDirectories(directory);
		// Written aside and renamed into place, so concurrent JVMs (parallel builds)
		// never run a half-written file.
		Path partial = Files.createTempFile(directory, EXECUTABLE_NAME, ".part");
		try {
			try (InputStream in = connection.getInputStream()) {
				Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
			}
			Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rwxr-xr-x"));
			try {
				Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			}
			catch (AtomicMoveNotSupportedException e) {
				Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
			}
		}
		finally {
			Files.deleteIfExists(partial);
		}
		return target;
	}

	private static String shortHash(String text) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest, 0, 8);
		}
		catch (NoSuchAlgorithmException e) {
			throw new IllegalStateException("every JVM ships SHA-256", e);
		}
	}

}

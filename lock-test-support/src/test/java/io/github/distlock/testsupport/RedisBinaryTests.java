package io.github.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RedisBinaryTests {

	@AfterEach
	void clearProperties() {
		System.clearProperty(RedisBinary.BINARY_PATH_PROPERTY);
		System.clearProperty(RedisBinary.PREFER_EMBEDDED_PROPERTY);
	}

	@Test
	void embeddedBinaryIsExtractedOnceAndServes() {
		assumeTrue(RedisBinary.embeddedBinaryRunsHere(), "the bundled redis-server is linux-amd64 only");
		System.setProperty(RedisBinary.PREFER_EMBEDDED_PROPERTY, "true");

		Path binary = RedisServer.binary();

		assertThat(binary.getParent().getFileName().toString()).startsWith("distlock-redis-");
		assertThat(binary.getParent().getParent()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")));
		assertThat(Files.isExecutable(binary)).isTrue();
		assertThat(RedisServer.binary()).isEqualTo(binary);
		try (RedisServer redis = RedisServer.start()) {
			assertThat(redis.command("INFO", "server")).contains("redis_version:6.2.");
			assertThat(redis.command("SET", "k", "v")).isEqualTo("OK");
			assertThat(redis.command("GET", "k")).isEqualTo("v");
		}
	}

	@Test
	void explicitBinaryPropertyWins() {
		Path onPath = RedisServer.binary();
		System.setProperty(RedisBinary.PREFER_EMBEDDED_PROPERTY, "true");
		System.setProperty(RedisBinary.BINARY_PATH_PROPERTY, onPath.toString());

		assertThat(RedisServer.binary()).isEqualTo(onPath);
	}

	@Test
	void explicitBinaryPropertyMustPointAtAnExecutable() {
		System.setProperty(RedisBinary.BINARY_PATH_PROPERTY, "/no/such/redis-server");

		assertThatThrownBy(RedisServer::binary).isInstanceOf(RedisServerException.class)
			.hasMessageContaining("/no/such/redis-server");
	}

}

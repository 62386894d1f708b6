package io.github.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A test JVM that dies without closing its servers must not leave redis-server processes
 * behind.
 */
class ShutdownHookTests {

	@Test
	void serversLeftOpenAreKilledWhenTheJvmExits() throws IOException, InterruptedException {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
				LeakingMain.class.getName())
			.redirectErrorStream(true)
			.start();
		assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("child JVM finished").isTrue();
		String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(child.exitValue()).as(output).isEqualTo(3);

		long leakedPid = Long.parseLong(output.lines()
			.filter(line -> line.startsWith("pid="))
			.findFirst()
			.orElseThrow(() -> new AssertionError(output))
			.substring(4));
		RedisServerTests.awaitUntil(Duration.ofSeconds(5),
				() -> !ProcessHandle.of(leakedPid).map(ProcessHandle::isAlive).orElse(false),
				() -> "redis-server pid " + leakedPid + " outlived its JVM");
		assertThat(ProcessHandle.of(leakedPid).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
	}

	/** Starts a server, paused to make it harder, and exits without closing it. */
	public static final class LeakingMain {

		public static void main(String[] args) {
			RedisServer leaked = RedisServer.start();
			leaked.pause();
			System.out.println("pid=" + leaked.pid());
			System.exit(3);
		}

	}

}

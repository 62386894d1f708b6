package io.github.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClientJvmTests {

	/** Echoes every input line with a counter, and exits on "exit". */
	public static final class Echo {

		public static void main(String[] args) throws Exception {
			System.out.println("READY " + args[0]);
			System.out.flush();
			BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
			int count = 0;
			String line;
			while ((line = in.readLine()) != null && !line.equals("exit")) {
				System.out.println(++count + " " + line);
				System.out.flush();
			}
			System.exit(7);
		}

	}

	@Test
	void runsAMainClassOfThisClassPathAndControlsItsProcess() {
		try (ClientJvm client = ClientJvm.builder(Echo.class).name("echo").args("hello").start()) {
			assertThat(client.awaitLine(line -> line.startsWith("READY"), Duration.ofSeconds(60)))
				.isEqualTo("READY hello");
			client.send("one");
			assertThat(client.awaitLine(line -> line.endsWith("one"), Duration.ofSeconds(10))).isEqualTo("1 one");

			client.pause();
			client.send("two"); // buffered in the pipe while the process is stopped
			assertThat(client.toString()).contains("paused");
			client.resume();
			assertThat(client.awaitLine(line -> line.endsWith("two"), Duration.ofSeconds(10))).isEqualTo("2 two");

			client.send("exit");
			assertThat(client.awaitExit(Duration.ofSeconds(10))).isEqualTo(7);
			assertThat(client.lines()).containsExactly("READY hello", "1 one", "2 two");
			assertThatIllegalStateException()
				.isThrownBy(() -> client.awaitLine(line -> line.equals("never"), Duration.ofSeconds(5)))
				.withMessageContaining("exited without printing a matching line");
		}
	}

	@Test
	void killEndsEvenAStoppedNicedProcess() throws Exception {
		try (ClientJvm client = ClientJvm.builder(Echo.class).name("victim").nice(5).args("x").start()) {
			client.awaitLine(line -> line.startsWith("READY"), Duration.ofSeconds(60));
			Path stat = Path.of("/proc", Long.toString(client.pid()), "stat");
			if (Files.exists(stat)) {
				// nice adds to the niceness it runs with: the build may run niced itself.
				int expected = Math.min(niceness(Path.of("/proc/self/stat")) + 5, 19);
				assertThat(niceness(stat)).as("niceness").isEqualTo(expected);
			}
			client.pause();
			client.kill();
			assertThat(client.isAlive()).isFalse();
		}
	}

	/** The niceness in a {@code /proc/<pid>/stat} file. */
	private static int niceness(Path stat) throws IOException {
		String content = Files.readString(stat);
		// Fields after "(comm)": state is the 3rd field of the line, nice the 19th.
		String[] fields = content.substring(content.lastIndexOf(')') + 2).split(" ");
		return Integer.parseInt(fields[16]);
	}

}

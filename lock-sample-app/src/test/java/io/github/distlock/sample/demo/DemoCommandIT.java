package io.github.distlock.sample.demo;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's demo command, run as a user runs it
 * ({@code java -jar lock-sample-app.jar --demo}), with a Redis it starts itself (as on a
 * machine where none answers; never the shared one on 6379): it exits 0, prints the
 * comparison table and leaves no instance and no Redis running.
 */
class DemoCommandIT {

	private static final Path OUTPUT = Path.of(System.getProperty("sample.output", "target"));

	@Test
	void demoPassesAndStopsEverythingItStarted() throws Exception {
		Path jar = Path.of(System.getProperty("sample.jar", "target/lock-sample-app.jar"));
		Path output = OUTPUT.resolve("demo-command-it.txt");
		Process demo = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
				jar.toString(), "--demo", "--redis=start", "--work-dir=" + OUTPUT.resolve("demo-command-it"))
			.redirectErrorStream(true)
			.redirectOutput(output.toFile())
			.start();
		long pid = demo.pid();
		try {
			assertThat(demo.waitFor(6, TimeUnit.MINUTES)).as("demo finished").isTrue();
		}
		finally {
			demo.destroyForcibly();
		}
		String printed = Files.readString(output, StandardCharsets.UTF_8);
		assertThat(demo.exitValue()).as(printed).isZero();
		Matcher started = Pattern.compile("Started \\S*redis-server\\S* for the demo on ([^:\\s]+):(\\d+)")
			.matcher(printed);
		assertThat(started.find()).as(printed).isTrue();
		assertThat(printed).containsPattern("Contrast +No lock +Locked +Fenced")
			.containsPattern("Surplus stock +\\d+ +0 +0")
			.containsPattern("Purchase records +\\d+ +100 +100")
			.contains("Locked and Fenced sold exactly 100 and left 0: PASS");
		// Stopped by the launcher before it exited, not later by their own watch on the
		// launcher's pid.
		assertThat(instancesStartedBy(pid)).isEmpty();
		assertThat(new RedisAddress(started.group(1), Integer.parseInt(started.group(2))).answersPing())
			.as("the demo's own Redis stopped")
			.isFalse();
	}

	private static List<ProcessHandle> instancesStartedBy(long launcherPid) {
		String marker = "--sample.parent-pid=" + launcherPid;
		return ProcessHandle.allProcesses()
			.filter((process) -> process.info().arguments().map(List::of).orElse(List.of()).contains(marker))
			.toList();
	}

}

package io.github.distlock.autoconfigure;

import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import io.github.distlock.LockService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BootLineCheck}: the auto-configuration module of the Boot line under test
 * passes; a module of the other line, or both, stop the context naming the starter to
 * use.
 */
class BootLineCheckTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class))
		.withPropertyValues("distributed-lock.store=in-memory");

	@TempDir
	Path markers;

	@Test
	void theRunningLineIsTheLineUnderTest() {
		assertThat(BootLineCheck.runningLine(getClass().getClassLoader())).isEqualTo(LineUnderTest.BOOT_LINE);
	}

	@Test
	void theModuleOfTheRunningLinePasses() throws IOException {
		List<URL> found = Collections.list(getClass().getClassLoader().getResources(BootLineCheck.MARKER));
		assertThat(found).hasSize(1);
		assertThat(new String(found.get(0).openStream().readAllBytes(), StandardCharsets.ISO_8859_1))
			.contains("boot-line=" + LineUnderTest.BOOT_LINE);
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(LockService.class));
	}

	@Test
	void theModuleOfTheOtherLineStopsTheContextNamingTheStarterToUse() throws IOException {
		boolean boot4 = "4".equals(LineUnderTest.BOOT_LINE);
		URL other = boot4 ? marker("3", "lock-spring-boot3-autoconfigure", "lock-spring-boot3-starter")
				: marker("4", "lock-spring-boot-autoconfigure", "lock-spring-boot-starter");
		this.contextRunner.withClassLoader(new MarkersClassLoader(List.of(other)))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining(
						boot4 ? "io.github.distlock:lock-spring-boot3-autoconfigure (for Spring Boot 3.5.x) cannot run"
								: "io.github.distlock:lock-spring-boot-autoconfigure (for Spring Boot 4.x) cannot run")
				.hasMessageContaining("replace it with io.github.distlock:"
						+ (boot4 ? "lock-spring-boot-starter" : "lock-spring-boot3-starter")));
	}

	@Test
	void bothLinesOnTheClasspathStopTheContext() throws IOException {
		List<URL> both = List.of(marker("4", "lock-spring-boot-autoconfigure", "lock-spring-boot-starter"),
				marker("3", "lock-spring-boot3-autoconfigure", "lock-spring-boot3-starter"));
		this.contextRunner.withClassLoader(new MarkersClassLoader(both))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("Both io.github.distlock:lock-spring-boot-autoconfigure")
				.hasMessageContaining("and io.github.distlock:lock-spring-boot3-autoconfigure")
				.hasMessageContaining("keep only the one for Spring Boot"));
	}

	@Test
	void withoutAMarkerNothingIsChecked() {
		this.contextRunner.withClassLoader(new MarkersClassLoader(List.of()))
			.run((context) -> assertThat(context).hasSingleBean(LockService.class));
	}

	private URL marker(String line, String artifact, String starter) throws IOException {
		Path file = Files.createTempFile(this.markers, "boot-line", ".properties");
		Files.writeString(file, "boot-line=" + line + "\nboot-versions=" + ("4".equals(line) ? "4.x" : "3.5.x")
				+ "\nartifact=" + artifact + "\nstarter=" + starter + "\n", StandardCharsets.ISO_8859_1);
		return file.toUri().toURL();
	}

	/** The test's class path, with the given markers in place of the real ones. */
	private static final class MarkersClassLoader extends ClassLoader {

		private final List<URL> markers;

		MarkersClassLoader(List<URL> markers) {
			super(BootLineCheckTests.class.getClassLoader());
			this.markers = new ArrayList<>(markers);
		}

		@Override
		public Enumeration<URL> getResources(String name) throws IOException {
			return BootLineCheck.MARKER.equals(name) ? Collections.enumeration(this.markers) : super.getResources(name);
		}

	}

}

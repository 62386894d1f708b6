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
 * passes, beside its test kit too; a module of the other line, or both, stop the context
 * naming the starter to use, and a test kit of the other line the kit to use.
 */
class BootLineCheckTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LineUnderTest.LOCKS))
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
				.hasMessageContaining("distlock artifacts of both Spring Boot lines are on the classpath: ")
				.hasMessageContaining("io.github.distlock:lock-spring-boot-autoconfigure (for Spring Boot 4.x)")
				.hasMessageContaining("io.github.distlock:lock-spring-boot3-autoconfigure (for Spring Boot 3.5.x)")
				.hasMessageContaining("keep only those for Spring Boot"));
	}

	@Test
	void theTestKitOfTheRunningLineBesideItsAutoConfigurationPasses() throws IOException {
		List<URL> line = "4".equals(LineUnderTest.BOOT_LINE)
				? List.of(marker("4", "lock-spring-boot-autoconfigure", "lock-spring-boot-starter"),
						kitMarker("4", "lock-spring-boot-test", "lock-spring-boot3-test",
								"lock-spring-boot-autoconfigure"))
				: List.of(marker("3", "lock-spring-boot3-autoconfigure", "lock-spring-boot3-starter"), kitMarker("3",
						"lock-spring-boot3-test", "lock-spring-boot-test", "lock-spring-boot3-autoconfigure"));
		this.contextRunner.withClassLoader(new MarkersClassLoader(line))
			.run((context) -> assertThat(context).hasSingleBean(LockService.class));
	}

	/**
	 * The application's starter is of the running line, the test kit of the other: the
	 * message names the kit, what it brings, and the kit to use instead (not the
	 * starter).
	 */
	@Test
	void theTestKitOfTheOtherLineIsNamedWithTheKitToUse() throws IOException {
		boolean boot4 = "4".equals(LineUnderTest.BOOT_LINE);
		URL starter = boot4 ? marker("4", "lock-spring-boot-autoconfigure", "lock-spring-boot-starter")
				: marker("3", "lock-spring-boot3-autoconfigure", "lock-spring-boot3-starter");
		URL otherKit = boot4
				? kitMarker("3", "lock-spring-boot3-test", "lock-spring-boot-test", "lock-spring-boot3-autoconfigure")
				: kitMarker("4", "lock-spring-boot-test", "lock-spring-boot3-test", "lock-spring-boot-autoconfigure");
		URL brought = boot4 ? marker("3", "lock-spring-boot3-autoconfigure", "lock-spring-boot3-starter")
				: marker("4", "lock-spring-boot-autoconfigure", "lock-spring-boot-starter");
		String kit = boot4 ? "lock-spring-boot3-test" : "lock-spring-boot-test";
		String kitToUse = boot4 ? "lock-spring-boot-test" : "lock-spring-boot3-test";
		String broughtArtifact = boot4 ? "lock-spring-boot3-autoconfigure" : "lock-spring-boot-autoconfigure";
		this.contextRunner.withClassLoader(new MarkersClassLoader(List.of(starter, otherKit, brought)))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("distlock artifacts of both Spring Boot lines are on the classpath: ")
				.hasMessageContaining("io.github.distlock:" + kit + ", io.github.distlock:" + broughtArtifact
						+ " (for Spring Boot " + (boot4 ? "3.5.x" : "4.x") + "; io.github.distlock:" + kit
						+ " brings io.github.distlock:" + broughtArtifact + ")")
				.hasMessageEndingWith(": replace io.github.distlock:" + kit + " with io.github.distlock:" + kitToUse));
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

	private URL kitMarker(String line, String artifact, String counterpart, String brings) throws IOException {
		Path file = Files.createTempFile(this.markers, "boot-line", ".properties");
		Files.writeString(file,
				"boot-line=" + line + "\nboot-versions=" + ("4".equals(line) ? "4.x" : "3.5.x") + "\nartifact="
						+ artifact + "\ncounterpart=" + counterpart + "\nbrings=" + brings + "\n",
				StandardCharsets.ISO_8859_1);
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

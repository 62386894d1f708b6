package io.github.distlock.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * The test kit's marker as {@link BootLineCheck} reads it, on the class path of the kit's
 * tests (run by each line's kit module): the kit and the auto-configuration module it
 * brings pass on their line; on the other line (a Boot 3.5 application that added the
 * Boot 4 kit, or the other way round) the context stops with a message naming the kit,
 * what it brings, and the kit of the running line to use instead.
 */
class KitBootLineCheckTests {

	private final ClassLoader classLoader = getClass().getClassLoader();

	@Test
	void theKitAndItsAutoConfigurationModulePassOnTheirLine() throws IOException {
		List<Properties> markers = markers();
		Properties kit = kit(markers);
		String line = BootLineCheck.runningLine(this.classLoader);
		assertThat(kit.getProperty("boot-line")).isEqualTo(line);
		assertThat(kit.getProperty("artifact"))
			.isEqualTo("4".equals(line) ? "lock-spring-boot-test" : "lock-spring-boot3-test");
		assertThat(kit.getProperty("counterpart"))
			.isEqualTo("4".equals(line) ? "lock-spring-boot3-test" : "lock-spring-boot-test");
		assertThat(markers).hasSize(2)
			.extracting((marker) -> marker.getProperty("artifact"))
			.contains(kit.getProperty("brings"));
		assertThatNoException().isThrownBy(() -> BootLineCheck.check(this.classLoader));
	}

	@Test
	void onTheOtherLineTheMessageNamesTheKitToUseInstead() throws IOException {
		Properties kit = kit(markers());
		String other = "4".equals(kit.getProperty("boot-line")) ? "3" : "4";
		String artifact = "io.github.distlock:" + kit.getProperty("artifact");
		assertThatIllegalStateException().isThrownBy(() -> BootLineCheck.check(this.classLoader, other))
			.withMessageContaining(artifact + " brings io.github.distlock:" + kit.getProperty("brings") + ")")
			.withMessageContaining(" cannot run on Spring Boot ")
			.withMessageEndingWith(
					": replace " + artifact + " with io.github.distlock:" + kit.getProperty("counterpart"));
	}

	private List<Properties> markers() throws IOException {
		List<Properties> markers = new ArrayList<>();
		for (URL url : Collections.list(this.classLoader.getResources(BootLineCheck.MARKER))) {
			Properties marker = new Properties();
			try (InputStream in = url.openStream()) {
				marker.load(in);
			}
			markers.add(marker);
		}
		return markers;
	}

	private static Properties kit(List<Properties> markers) {
		return markers.stream()
			.filter((marker) -> marker.getProperty("counterpart") != null)
			.findFirst()
			.orElseThrow(() -> new AssertionError("No test kit marker among " + markers));
	}

}

package io.github.distlock.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.StringJoiner;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringBootVersion;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

/**
 * Stops the application context when a distlock artifact on the classpath was built for
 * another Spring Boot line than the one running (or when both lines' are there), with a
 * message naming each such artifact and what to use instead. On the wrong line the
 * auto-configuration would not fail by itself: Boot ignores the ordering names it does
 * not know, so the {@code LockService} would silently be missing and the first annotated
 * call would fail.
 * <p>
 * Each line-specific artifact (the auto-configuration modules, the test kits) carries a
 * {@value #MARKER} resource naming its line and artifact; a test kit's also names the
 * same kit for the other line ({@code counterpart}) and the auto-configuration module it
 * brings ({@code brings}), so that a Boot 3.5 application with the Boot 4 kit is told to
 * change the kit rather than its starter. The running line is told by a class only Boot 4
 * has. Without a marker (the configuration imported by hand) nothing is checked. Never
 * "does not match": it either lets the configuration proceed or throws.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
final class BootLineCheck implements Condition {

	/** The resource each line-specific artifact carries. */
	static final String MARKER = "META-INF/distlock/boot-line.properties";

	/** In Spring Boot 4.0 and later only (Boot 3 has it in {@code ...boot.env}). */
	private static final String BOOT_4_CLASS = "org.springframework.boot.EnvironmentPostProcessor";

	private static final String GROUP = "io.github.distlock:";

	@Override
	public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
		ClassLoader classLoader = (context.getClassLoader() != null) ? context.getClassLoader()
				: BootLineCheck.class.getClassLoader();
		check(classLoader);
		return true;
	}

	/**
	 * Checks that the distlock artifacts on the classpath fit the running Boot line.
	 * @param classLoader the application's class loader
	 * @throws IllegalStateException naming the artifacts to use when they do not
	 */
	static void check(ClassLoader classLoader) {
		check(classLoader, runningLine(classLoader));
	}

	/**
	 * Checks that the distlock artifacts on the classpath fit a Boot line.
	 * @param classLoader the class loader whose markers to read
	 * @param running the line to check against, {@code "4"} or {@code "3"}
	 * @throws IllegalStateException naming the artifacts to use when they do not
	 */
	static void check(ClassLoader classLoader, String running) {
		List<Properties> markers = markers(classLoader);
		List<Properties> wrong = new ArrayList<>();
		List<Properties> right = new ArrayList<>();
		for (Properties marker : markers) {
			(running.equals(marker.getProperty("boot-line")) ? right : wrong).add(marker);
		}
		if (wrong.isEmpty()) {
			return;
		}
		if (!right.isEmpty()) {
			throw new IllegalStateException("distlock artifacts of both Spring Boot lines are on the classpath: "
					+ describe(right) + " and " + describe(wrong) + "; keep only those for Spring Boot "
					+ runningVersion(running) + ": " + advice(running, wrong, markers));
		}
		throw new IllegalStateException(describe(wrong) + " cannot run on Spring Boot " + runningVersion(running) + ": "
				+ advice(running, wrong, markers));
	}

	/**
	 * The major version of the running Spring Boot.
	 * @param classLoader the application's class loader
	 * @return {@code "4"} or {@code "3"}
	 */
	static String runningLine(ClassLoader classLoader) {
		return ClassUtils.isPresent(BOOT_4_CLASS, classLoader) ? "4" : "3";
	}

	private static List<Properties> markers(ClassLoader classLoader) {
		try {
			List<Properties> markers = new ArrayList<>();
			for (URL url : Collections.list(classLoader.getResources(MARKER))) {
				Properties properties = new Properties();
				try (InputStream in = url.openStream()) {
					properties.load(in);
				}
				markers.add(properties);
			}
			return markers;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read " + MARKER, ex);
		}
	}

	/** The artifacts of one line: "g:a, g:b (for Spring Boot 4.x; g:b brings g:a)". */
	private static String describe(List<Properties> line) {
		StringJoiner artifacts = new StringJoiner(", ");
		StringJoiner notes = new StringJoiner("; ", "; ", "").setEmptyValue("");
		for (Properties marker : line) {
			artifacts.add(GROUP + marker.getProperty("artifact"));
			String brings = marker.getProperty("brings");
			if (brings != null && artifactIn(line, brings)) {
				notes.add(GROUP + marker.getProperty("artifact") + " brings " + GROUP + brings);
			}
		}
		return artifacts + " (for Spring Boot " + line.get(0).getProperty("boot-versions") + notes + ")";
	}

	/**
	 * What replaces each artifact of the wrong line: its counterpart (a test kit's) or
	 * the running line's starter; an artifact brought by another of them goes with it.
	 */
	private static String advice(String running, List<Properties> wrong, List<Properties> markers) {
		List<String> replacements = new ArrayList<>();
		for (Properties marker : wrong) {
			String artifact = marker.getProperty("artifact");
			if (broughtBy(wrong, artifact)) {
				continue;
			}
			String counterpart = marker.getProperty("counterpart");
			String replacement = GROUP + ((counterpart != null) ? counterpart : starterFor(running, markers));
			replacements
				.add((wrong.size() == 1) ? "it with " + replacement : GROUP + artifact + " with " + replacement);
		}
		return "replace " + String.join(", and ", replacements);
	}

	private static boolean broughtBy(List<Properties> markers, String artifact) {
		for (Properties marker : markers) {
			if (artifact.equals(marker.getProperty("brings"))) {
				return true;
			}
		}
		return false;
	}

	private static boolean artifactIn(List<Properties> markers, String artifact) {
		for (Properties marker : markers) {
			if (artifact.equals(marker.getProperty("artifact"))) {
				return true;
			}
		}
		return false;
	}

	private static String runningVersion(String line) {
		@Nullable String version = SpringBootVersion.getVersion();
		return (version != null) ? version : line + ".x";
	}

	private static String starterFor(String line, List<Properties> markers) {
		for (Properties marker : markers) {
			if (line.equals(marker.getProperty("boot-line")) && marker.getProperty("starter") != null) {
				return marker.getProperty("starter");
			}
		}
		return "4".equals(line) ? "lock-spring-boot-starter" : "lock-spring-boot3-starter";
	}

}

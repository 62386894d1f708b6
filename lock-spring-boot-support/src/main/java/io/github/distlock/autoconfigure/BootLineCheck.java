package io.github.distlock.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringBootVersion;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

/**
 * Stops the application context when the distlock auto-configuration on the classpath was
 * built for another Spring Boot line than the one running (or when both lines' are
 * there), with a message naming the starter to use instead. On the wrong line the
 * auto-configuration would not fail by itself: Boot ignores the ordering names it does
 * not know, so the {@code LockService} would silently be missing and the first annotated
 * call would fail.
 * <p>
 * Each line's auto-configuration module carries a {@value #MARKER} resource naming its
 * line and artifacts; the running line is told by a class only Boot 4 has. Without a
 * marker (the configuration imported by hand) nothing is checked. Never "does not match":
 * it either lets the configuration proceed or throws.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
final class BootLineCheck implements Condition {

	/** The resource each line's auto-configuration module carries. */
	static final String MARKER = "META-INF/distlock/boot-line.properties";

	/** In Spring Boot 4.0 and later only (Boot 3 has it in {@code ...boot.env}). */
	private static final String BOOT_4_CLASS = "org.springframework.boot.EnvironmentPostProcessor";

	@Override
	public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
		ClassLoader classLoader = (context.getClassLoader() != null) ? context.getClassLoader()
				: BootLineCheck.class.getClassLoader();
		check(classLoader);
		return true;
	}

	/**
	 * Checks that the distlock auto-configuration modules on the classpath fit the
	 * running Boot line.
	 * @param classLoader the application's class loader
	 * @throws IllegalStateException naming the artifact to use when they do not
	 */
	static void check(ClassLoader classLoader) {
		List<Properties> markers = markers(classLoader);
		String running = runningLine(classLoader);
		if (markers.size() > 1) {
			throw new IllegalStateException("Both " + describe(markers.get(0)) + " and " + describe(markers.get(1))
					+ " are on the classpath; keep only the one for Spring Boot " + runningVersion(running) + ": "
					+ starterFor(running, markers));
		}
		if (markers.size() == 1 && !running.equals(markers.get(0).getProperty("boot-line"))) {
			throw new IllegalStateException(describe(markers.get(0)) + " cannot run on Spring Boot "
					+ runningVersion(running) + ": replace it with " + starterFor(running, markers));
		}
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

	private static String describe(Properties marker) {
		return "io.github.distlock:" + marker.getProperty("artifact") + " (for Spring Boot "
				+ marker.getProperty("boot-versions") + ")";
	}

	private static String runningVersion(String line) {
		@Nullable String version = SpringBootVersion.getVersion();
		return (version != null) ? version : line + ".x";
	}

	private static String starterFor(String line, List<Properties> markers) {
		for (Properties marker : markers) {
			if (line.equals(marker.getProperty("boot-line"))) {
				return "io.github.distlock:" + marker.getProperty("starter");
			}
		}
		return "io.github.distlock:" + ("4".equals(line) ? "lock-spring-boot-starter" : "lock-spring-boot3-starter");
	}

}

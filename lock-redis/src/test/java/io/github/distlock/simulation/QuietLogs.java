package io.github.distlock.simulation;

import java.lang.reflect.Method;
import java.util.function.Supplier;

import org.slf4j.LoggerFactory;

/**
 * Runs a world with the engine's logging at ERROR (when Logback is the binding): a world
 * logs every lost lock and failed release of its faults, and its trace already says what
 * happened, in virtual time.
 */
final class QuietLogs {

	private QuietLogs() {
	}

	static <T> T during(Supplier<T> work) {
		Object logger = LoggerFactory.getLogger("io.github.distlock");
		Method getLevel;
		Method setLevel;
		Object error;
		try {
			Class<?> level = Class.forName("ch.qos.logback.classic.Level", false, logger.getClass().getClassLoader());
			getLevel = logger.getClass().getMethod("getLevel");
			setLevel = logger.getClass().getMethod("setLevel", level);
			error = level.getField("ERROR").get(null);
		}
		catch (ReflectiveOperationException | LinkageError ex) {
			return work.get();
		}
		Object before = invoke(getLevel, logger);
		invoke(setLevel, logger, error);
		try {
			return work.get();
		}
		finally {
			invoke(setLevel, logger, before);
		}
	}

	private static Object invoke(Method method, Object target, Object... arguments) {
		try {
			return method.invoke(target, arguments);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

}

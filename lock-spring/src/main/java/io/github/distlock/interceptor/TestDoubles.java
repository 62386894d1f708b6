package io.github.distlock.interceptor;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Recognises Mockito mocks and spies, when Mockito is on the class path, without
 * depending on it: a test that replaces a locked bean with a mock ({@code @MockitoBean})
 * registers it unproxied on purpose.
 */
final class TestDoubles {

	private static final @Nullable Method MOCKING_DETAILS = mockingDetails();

	private TestDoubles() {
	}

	static boolean isMockOrSpy(Object bean) {
		if (MOCKING_DETAILS == null) {
			return false;
		}
		Object details = ReflectionUtils.invokeMethod(MOCKING_DETAILS, null, bean);
		Method isMock = (details != null) ? ReflectionUtils.findMethod(details.getClass(), "isMock") : null;
		if (isMock == null) {
			return false;
		}
		ReflectionUtils.makeAccessible(isMock);
		return Boolean.TRUE.equals(ReflectionUtils.invokeMethod(isMock, details));
	}

	private static @Nullable Method mockingDetails() {
		ClassLoader classLoader = TestDoubles.class.getClassLoader();
		if (!ClassUtils.isPresent("org.mockito.Mockito", classLoader)) {
			return null;
		}
		try {
			return ClassUtils.forName("org.mockito.Mockito", classLoader).getMethod("mockingDetails", Object.class);
		}
		catch (ClassNotFoundException | NoSuchMethodException | LinkageError ex) {
			return null;
		}
	}

}

package io.github.distlock.interceptor;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockMode;
import io.github.distlock.OnLockFailure;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeHint;
import org.springframework.aot.hint.TypeReference;

/**
 * The runtime hints of the {@link DistributedLock @DistributedLock} interception that
 * hold for every application: the annotation's attributes are read reflectively (Spring's
 * {@code MergedAnnotations} invokes its attribute methods, and synthesizes a proxy of it
 * when it is used as a meta-annotation), and its enums are resolved by name. Registered
 * in {@code META-INF/spring/aot.factories}; the locked methods of each bean are
 * {@link DistributedLockBeanRegistrationAotProcessor}'s.
 */
class DistributedLockRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.reflection().registerType(DistributedLock.class, MemberCategory.INVOKE_DECLARED_METHODS);
		hints.proxies().registerJdkProxy(DistributedLock.class);
		// The constants as fields, as Spring registers its transaction enums (deprecated
		// on Framework 7 for ACCESS_DECLARED_FIELDS, which 6.2 does not have).
		hints.reflection()
			.registerTypes(TypeReference.listOf(LockMode.class, OnLockFailure.class),
					TypeHint.builtWith(declaredFields()));
	}

	@SuppressWarnings("deprecation")
	private static MemberCategory declaredFields() {
		return MemberCategory.DECLARED_FIELDS;
	}

}

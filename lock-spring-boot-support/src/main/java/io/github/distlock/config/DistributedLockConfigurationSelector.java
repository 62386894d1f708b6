package io.github.distlock.config;

import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.annotation.AdviceModeImportSelector;
import org.springframework.util.ClassUtils;

/**
 * Imports the configuration of the {@link EnableDistributedLock#mode() advice mode}: the
 * proxy advisor for {@code PROXY}, the AspectJ aspect's binding from
 * {@code lock-spring-aspects} for {@code ASPECTJ}.
 */
public final class DistributedLockConfigurationSelector extends AdviceModeImportSelector<EnableDistributedLock> {

	/**
	 * The configuration of the proxy mode, by name: this package is the one users import,
	 * and it depends on no other package of distlock (the configuration depends on it).
	 */
	public static final String PROXY_CONFIGURATION_CLASS_NAME = "io.github.distlock.autoconfigure.DistributedLockInterceptionConfiguration";

	/** The configuration of the AspectJ mode, in {@code lock-spring-aspects}. */
	public static final String ASPECTJ_CONFIGURATION_CLASS_NAME = "io.github.distlock.aspectj.AspectJDistributedLockConfiguration";

	@Override
	protected String[] selectImports(AdviceMode adviceMode) {
		if (adviceMode == AdviceMode.ASPECTJ) {
			if (!ClassUtils.isPresent(ASPECTJ_CONFIGURATION_CLASS_NAME, getClass().getClassLoader())) {
				throw new IllegalStateException("@EnableDistributedLock(mode = AdviceMode.ASPECTJ) needs"
						+ " io.github.distlock:lock-spring-aspects on the class path, and its DistributedLockAspect woven"
						+ " into your classes at compile time or at load time (" + ASPECTJ_CONFIGURATION_CLASS_NAME
						+ " was not found)");
			}
			return new String[] { ASPECTJ_CONFIGURATION_CLASS_NAME };
		}
		return new String[] { PROXY_CONFIGURATION_CLASS_NAME };
	}

}

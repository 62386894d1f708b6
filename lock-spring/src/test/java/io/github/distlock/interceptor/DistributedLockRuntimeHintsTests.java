package io.github.distlock.interceptor;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockMode;
import io.github.distlock.OnLockFailure;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hints every application of {@code @DistributedLock} needs in a native image: its
 * attributes read reflectively, its enums resolved by name; registered through
 * {@code aot.factories}.
 */
class DistributedLockRuntimeHintsTests {

	private final RuntimeHints hints = new RuntimeHints();

	DistributedLockRuntimeHintsTests() {
		new DistributedLockRuntimeHints().registerHints(this.hints, getClass().getClassLoader());
	}

	@Test
	void attributesOfTheAnnotationCanBeReadReflectively() {
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(DistributedLock.class)
			.withMemberCategory(MemberCategory.INVOKE_DECLARED_METHODS)).accepts(this.hints);
	}

	@Test
	void annotationCanBeSynthesizedFromAComposedAnnotation() {
		assertThat(RuntimeHintsPredicates.proxies().forInterfaces(DistributedLock.class)).accepts(this.hints);
	}

	@Test
	@SuppressWarnings("deprecation") // ACCESS_DECLARED_FIELDS on Framework 7; the suite
										// runs on 6.2 too
	void enumsOfTheAttributesCanBeResolvedByName() {
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(LockMode.class)
			.withMemberCategory(MemberCategory.DECLARED_FIELDS)).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(OnLockFailure.class)
			.withMemberCategory(MemberCategory.DECLARED_FIELDS)).accepts(this.hints);
	}

	@Test
	void isRegisteredForAheadOfTimeProcessing() {
		assertThat(AotServices.factories().load(RuntimeHintsRegistrar.class))
			.hasAtLeastOneElementOfType(DistributedLockRuntimeHints.class);
	}

}

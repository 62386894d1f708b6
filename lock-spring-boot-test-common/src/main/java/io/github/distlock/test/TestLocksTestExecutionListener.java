package io.github.distlock.test;

import org.springframework.test.context.TestContext;
import org.springframework.test.context.support.AbstractTestExecutionListener;

/**
 * {@linkplain TestLocks#reset() Resets} the {@link TestLocks} of the test's application
 * context before each test method, so that each test sees only its own records and finds
 * no lock held elsewhere by an earlier test. Loads no context that is not loaded yet.
 */
class TestLocksTestExecutionListener extends AbstractTestExecutionListener {

	/** Before Spring's dependency injection listener's {@code beforeTestMethod}. */
	@Override
	public int getOrder() {
		return 1900;
	}

	@Override
	public void beforeTestMethod(TestContext testContext) {
		if (testContext.hasApplicationContext()) {
			testContext.getApplicationContext().getBeanProvider(TestLocks.class).ifUnique(TestLocks::reset);
		}
	}

}

package io.github.distlock.aspectj;

/**
 * Compile-time weaving: the build's AspectJ compiler wove {@link WovenCounter}.
 */
class CompileTimeWeavingTests extends TwoInstanceExclusion {

	@Override
	Class<? extends CounterWork> counterClass() {
		return WovenCounter.class;
	}

	@Override
	String[] jvmArgs() {
		return new String[0];
	}

}

package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockMode;
import io.github.distlock.store.InMemoryLockStore;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every bad {@link DistributedLock @DistributedLock} fails the application context at
 * startup, naming the method and the attribute ({@link InterceptionContextRunner}: plain
 * Spring Framework). Runs on the in-memory store: validation does not depend on the
 * store.
 */
class AnnotationValidationTests {

	private final InMemoryLockStore store = new InMemoryLockStore();

	static Iterable<Arguments> badAnnotations() {
		return java.util.List.of(Arguments.of(UnparsableKey.class, "key '#sku +'", "not a valid SpEL"),
				Arguments.of(UnknownParameter.class, "key '#nope'", "'nope' that does not exist"),
				Arguments.of(TypeReferenceKey.class, "key 'T(java.lang.Runtime)", "type reference"),
				Arguments.of(ConstructorKey.class, "key 'new java.util.Date()'", "constructor"),
				Arguments.of(BeanReferenceKey.class, "key '@inventory'", "bean reference"),
				Arguments.of(MethodCallKey.class, "key '#sku.toUpperCase()'", "method call"),
				Arguments.of(AssignmentKey.class, "key '#sku = 'x''", "assignment"),
				Arguments.of(OverlongKey.class, "key '", "at most 500"),
				Arguments.of(UnparsableWait.class, "waitTime '5 parsecs'", "not a duration"),
				Arguments.of(NegativeWait.class, "waitTime '-1s'", "negative"),
				Arguments.of(AbsurdWait.class, "waitTime '2d'", "longer than 24 hours"),
				Arguments.of(ZeroLease.class, "leaseTime '0'", "at least 1ms"),
				Arguments.of(NegativeMinHold.class, "minHoldTime '-5s'", "negative"),
				Arguments.of(MinHoldLongerThanLease.class, "minHoldTime '10s'", "longer than leaseTime"),
				Arguments.of(UnresolvableName.class, "name '${no.such.property}'", "could not be resolved"),
				Arguments.of(AsyncReturn.class, "returns Future, whose work outlives the call",
						"return a CompletableFuture instead"),
				Arguments.of(FairReactive.class, "fair = true is not supported on a method returning Mono",
						"default mode"),
				Arguments.of(ReadReactive.class, "mode = READ is not supported on a method returning Flux",
						"exclusive locks only"),
				Arguments.of(FinalMethod.class, "the method is final", "cannot intercept"),
				Arguments.of(FinalClass.class, "the class FinalClass is final", "cannot subclass it"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("badAnnotations")
	void failsAtStartupNamingMethodAndAttribute(Class<?> beanClass, String attribute, String reason) {
		Throwable failure = new InterceptionContextRunner(this.store, Duration.ZERO).withUserConfiguration(beanClass)
			.startupFailure();
		assertThat(failure).as("the context's startup failure").isNotNull();
		while (failure.getCause() != null && !(failure instanceof IllegalStateException
				&& failure.getMessage().startsWith("Invalid @DistributedLock"))) {
			failure = failure.getCause();
		}
		assertThat(failure.getMessage()).startsWith("Invalid @DistributedLock on " + beanClass.getName() + ".")
			.contains(attribute)
			.contains(reason);
	}

	static class UnparsableKey {

		@DistributedLock(key = "#sku +")
		public void run(String sku) {
		}

	}

	static class UnknownParameter {

		public void fine() {
		}

		@DistributedLock(key = "#nope")
		public void run(String sku) {
		}

	}

	static class TypeReferenceKey {

		@DistributedLock(key = "T(java.lang.Runtime).getRuntime().exec('touch /tmp/x')")
		public void run(String sku) {
		}

	}

	static class ConstructorKey {

		@DistributedLock(key = "new java.util.Date()")
		public void run(String sku) {
		}

	}

	static class BeanReferenceKey {

		@DistributedLock(key = "@inventory")
		public void run(String sku) {
		}

	}

	static class MethodCallKey {

		@DistributedLock(key = "#sku.toUpperCase()")
		public void run(String sku) {
		}

	}

	static class AssignmentKey {

		@DistributedLock(key = "#sku = 'x'")
		public void run(String sku) {
		}

	}

	static class OverlongKey {

		@DistributedLock(key = "#sku + '"
				+ "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
				+ "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
				+ "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
				+ "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
				+ "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'")
		public void run(String sku) {
		}

	}

	static class UnparsableWait {

		@DistributedLock(waitTime = "5 parsecs")
		public void run() {
		}

	}

	static class NegativeWait {

		@DistributedLock(waitTime = "-1s")
		public void run() {
		}

	}

	static class AbsurdWait {

		@DistributedLock(waitTime = "2d")
		public void run() {
		}

	}

	static class ZeroLease {

		@DistributedLock(leaseTime = "0")
		public void run() {
		}

	}

	static class NegativeMinHold {

		@DistributedLock(minHoldTime = "-5s")
		public void run() {
		}

	}

	static class MinHoldLongerThanLease {

		@DistributedLock(leaseTime = "5s", minHoldTime = "10s")
		public void run() {
		}

	}

	static class UnresolvableName {

		@DistributedLock(name = "${no.such.property}")
		public void run() {
		}

	}

	static class AsyncReturn {

		@DistributedLock
		public Future<String> run() {
			return CompletableFuture.completedFuture("x");
		}

	}

	static class FairReactive {

		@DistributedLock(fair = true)
		public Mono<String> run() {
			return Mono.just("x");
		}

	}

	static class ReadReactive {

		@DistributedLock(mode = LockMode.READ)
		public Flux<String> run() {
			return Flux.just("x");
		}

	}

	static final class FinalClass {

		@DistributedLock
		public void run() {
		}

	}

	static class FinalMethod {

		public void fine() {
		}

		@DistributedLock
		public final void run() {
		}

	}

}

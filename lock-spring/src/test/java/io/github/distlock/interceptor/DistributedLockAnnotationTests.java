package io.github.distlock.interceptor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockContext;
import io.github.distlock.LockHandle;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.LockService;
import io.github.distlock.OnLockFailure;
import io.github.distlock.core.LockEngine;
import io.github.distlock.store.InMemoryLockStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@link DistributedLock @DistributedLock} through a real Spring proxy (plain Spring
 * Framework: {@link InterceptionContextRunner}), on the in-memory store (the interception
 * does not depend on the store; the store contract suites hold Redis and the in-memory
 * store to the same behaviour); "another instance" is a separate {@link LockEngine} on
 * the same store.
 */
class DistributedLockAnnotationTests {

	private final InMemoryLockStore store = new InMemoryLockStore();

	private LockEngine otherInstance;

	private InterceptionContextRunner contextRunner;

	@BeforeEach
	void setUp() {
		this.otherInstance = new LockEngine(this.store, Duration.ofSeconds(30));
		this.contextRunner = new InterceptionContextRunner(this.store, Duration.ofMillis(200))
			.withPlaceholder("lock.name", "from-property")
			.withUserConfiguration(ServicesConfiguration.class);
	}

	@AfterEach
	void shutDownOtherInstance() {
		this.otherInstance.destroy();
	}

	@Test
	void theMethodRunsUnderTheLockOfItsNameAndKey() {
		this.contextRunner.run((context) -> {
			Inventory inventory = context.getBean(Inventory.class);
			assertThat(inventory.buy("apple")).isEqualTo("stock:apple");
			assertThat(inventory.lastHeldElsewhere()).isTrue();
			assertThat(this.otherInstance.isLocked("stock:apple")).isFalse();
			assertThat(LockContext.current()).isEmpty();
		});
	}

	@Test
	void annotationAndLockServiceShareOneIdSpace() {
		this.contextRunner.run((context) -> {
			Inventory inventory = context.getBean(Inventory.class);
			try (LockHandle held = this.otherInstance.lock("stock:apple", Duration.ZERO)) {
				assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> inventory.buy("apple"))
					.satisfies((ex) -> assertThat(ex.getLockId()).isEqualTo("stock:apple"))
					.withMessageContaining("Inventory.buy(String)");
				assertThat(inventory.invocations()).isEqualTo(0);
				assertThat(inventory.buy("pear")).isEqualTo("stock:pear");
			}
		});
	}

	@Test
	void keyExpressionsSeeArgumentsByNameIndexAndProperty() {
		this.contextRunner.run((context) -> {
			Inventory inventory = context.getBean(Inventory.class);
			assertThat(inventory.byIndex("a", "b")).isEqualTo("index:a-b");
			assertThat(inventory.byProperty(new Order("o-42", 3))).isEqualTo("order:o-42/3");
			assertThat(inventory.defaultName()).isEqualTo("Inventory.defaultName");
			assertThat(inventory.placeholderName()).isEqualTo("from-property");
		});
	}

	@Test
	void argumentValuesAreDataNeverExpressions(@org.junit.jupiter.api.io.TempDir Path dir) {
		Path marker = dir.resolve("pwned");
		this.contextRunner.run((context) -> {
			Inventory inventory = context.getBean(Inventory.class);
			String hostile = "T(java.lang.Runtime).getRuntime().exec('touch " + marker + "')";
			assertThat(inventory.buy(hostile)).isEqualTo("stock:" + hostile);
			assertThat(inventory.buy("#{1+1}")).isEqualTo("stock:#{1+1}");
			assertThat(inventory.buy("${user.home}")).isEqualTo("stock:${user.home}");
			assertThat(Files.exists(marker)).isFalse();
		});
	}

	@Test
	void aNullOrBlankKeyFailsClosed() {
		this.contextRunner.run((context) -> {
			Inventory inventory = context.getBean(Inventory.class);
			assertThatIllegalArgumentException().isThrownBy(() -> inventory.buy(null))
				.withMessageContaining("#sku")
				.withMessageContaining("Inventory.buy(String)")
				.withMessageContaining("null");
			assertThatIllegalArgumentException().isThrownBy(() -> inventory.buy("  ")).withMessageContaining("blank");
			assertThat(inventory.invocations()).isEqualTo(0);
		});
	}

	@Test
	void skippedMethodsReturnTheDocumentedValues() {
		this.contextRunner.run((context) -> {
			Skipping skipping = context.getBean(Skipping.class);
			try (LockHandle held = this.otherInstance.lock("busy", Duration.ZERO)) {
				assertThat(skipping.flag()).isFalse();
				assertThat(skipping.number()).isZero();
				assertThat(skipping.big()).isZero();
				assertThat(skipping.optional()).isEmpty();
				assertThat(skipping.text()).isNull();
				skipping.nothing();
				assertThat(skipping.invocations()).isEqualTo(0);
			}
			assertThat(skipping.flag()).isTrue();
			assertThat(skipping.number()).isEqualTo(7);
			assertThat(skipping.optional()).contains("ran");
			assertThat(skipping.invocations()).isEqualTo(3);
		});
	}

	@Test
	void nestedLockedCallsOnOneThreadReenterAndExposeTheInnermostLock() {
		this.contextRunner.run((context) -> {
			Outer outer = context.getBean(Outer.class);
			assertThat(outer.run("x")).isEqualTo("outer:x|stock:x|outer:x");
			assertThat(this.otherInstance.isLocked("outer:x")).isFalse();
			assertThat(this.otherInstance.isLocked("stock:x")).isFalse();
		});
	}

	@Test
	void reenteringTheSameLockDoesNotWait() {
		this.contextRunner.run((context) -> {
			Outer outer = context.getBean(Outer.class);
			assertThat(outer.twice("apple")).isEqualTo("stock:apple");
		});
	}

	@Test
	void minHoldTimeKeepsTheLockAfterAQuickMethod() {
		this.contextRunner.run((context) -> {
			Skipping skipping = context.getBean(Skipping.class);
			skipping.scheduledJob();
			assertThat(this.otherInstance.isLocked("job")).isTrue();
			// A second instance's trigger inside the period is skipped.
			assertThat(this.otherInstance.tryLock("job", Duration.ZERO, null)).isEmpty();
			await().atMost(Duration.ofSeconds(10)).until(() -> !this.otherInstance.isLocked("job"));
		});
	}

	@Test
	void theLockIsReleasedWhenTheMethodThrows() {
		this.contextRunner.run((context) -> {
			Inventory inventory = context.getBean(Inventory.class);
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> inventory.fail("apple"));
			assertThat(this.otherInstance.isLocked("stock:apple")).isFalse();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class ServicesConfiguration {

		@Bean
		Inventory inventory(LockService lockService) {
			return new Inventory();
		}

		@Bean
		Skipping skipping() {
			return new Skipping();
		}

		@Bean
		Outer outer(Inventory inventory) {
			return new Outer(inventory);
		}

	}

	record Order(String id, int lines) {

		public String getId() {
			return this.id;
		}

		public int getLines() {
			return this.lines;
		}

	}

	static class Inventory {

		final AtomicInteger invocations = new AtomicInteger();

		volatile boolean lastHeldElsewhere;

		// Fields are read through methods: a class proxy has fields of its own.
		public int invocations() {
			return this.invocations.get();
		}

		public boolean lastHeldElsewhere() {
			return this.lastHeldElsewhere;
		}

		@DistributedLock(name = "stock", key = "#sku")
		public String buy(String sku) {
			this.invocations.incrementAndGet();
			LockHandle handle = LockContext.current().orElseThrow();
			this.lastHeldElsewhere = handle.isHeld();
			return handle.lockId();
		}

		@DistributedLock(name = "stock", key = "#sku")
		public String fail(String sku) {
			throw new IllegalStateException("failed inside the lock");
		}

		@DistributedLock(name = "index", key = "#p0 + '-' + #a1")
		public String byIndex(String first, String second) {
			return LockContext.current().orElseThrow().lockId();
		}

		@DistributedLock(name = "order", key = "#order.id + '/' + #order.lines")
		public String byProperty(Order order) {
			return LockContext.current().orElseThrow().lockId();
		}

		@DistributedLock
		public String defaultName() {
			return LockContext.current().orElseThrow().lockId();
		}

		@DistributedLock(name = "${lock.name}")
		public String placeholderName() {
			return LockContext.current().orElseThrow().lockId();
		}

	}

	static class Skipping {

		final AtomicInteger invocations = new AtomicInteger();

		public int invocations() {
			return this.invocations.get();
		}

		@DistributedLock(name = "busy", waitTime = "0", onFailure = OnLockFailure.SKIP)
		public boolean flag() {
			this.invocations.incrementAndGet();
			return true;
		}

		@DistributedLock(name = "busy", waitTime = "0", onFailure = OnLockFailure.SKIP)
		public int number() {
			this.invocations.incrementAndGet();
			return 7;
		}

		@DistributedLock(name = "busy", waitTime = "0", onFailure = OnLockFailure.SKIP)
		public double big() {
			this.invocations.incrementAndGet();
			return 7;
		}

		@DistributedLock(name = "busy", waitTime = "0", onFailure = OnLockFailure.SKIP)
		public Optional<String> optional() {
			this.invocations.incrementAndGet();
			return Optional.of("ran");
		}

		@DistributedLock(name = "busy", waitTime = "0", onFailure = OnLockFailure.SKIP)
		public String text() {
			this.invocations.incrementAndGet();
			return "ran";
		}

		@DistributedLock(name = "busy", waitTime = "0", onFailure = OnLockFailure.SKIP)
		public void nothing() {
			this.invocations.incrementAndGet();
		}

		@DistributedLock(name = "job", waitTime = "0", minHoldTime = "1500ms", onFailure = OnLockFailure.SKIP)
		public void scheduledJob() {
		}

	}

	static class Outer {

		private final Inventory inventory;

		Outer(Inventory inventory) {
			this.inventory = inventory;
		}

		@DistributedLock(name = "outer", key = "#sku")
		public String run(String sku) {
			String before = LockContext.current().orElseThrow().lockId();
			String inner = this.inventory.buy(sku);
			String after = LockContext.current().orElseThrow().lockId();
			return before + "|" + inner + "|" + after;
		}

		@DistributedLock(name = "stock", key = "#sku", waitTime = "0")
		public String twice(String sku) {
			return this.inventory.buy(sku);
		}

	}

}

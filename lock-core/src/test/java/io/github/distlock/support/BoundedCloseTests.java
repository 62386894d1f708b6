package io.github.distlock.support;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import ch.qos.logback.classic.Level;
import io.github.distlock.redis.CapturedLogs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Closing with a bound: a close that never ends (a latch nobody counts down, as a Lettuce
 * shutdown that hangs) is left behind after the bound with a WARN naming it; the others
 * still close.
 */
class BoundedCloseTests {

	private static final Duration BOUND = Duration.ofMillis(200);

	/** Far above the bound: only a close that waits for the hanging one reaches it. */
	private static final Duration NEVER = Duration.ofSeconds(10);

	private final CountDownLatch hangs = new CountDownLatch(1);

	@AfterEach
	void releaseTheHangingClose() {
		this.hangs.countDown();
		Thread.interrupted();
	}

	@Test
	void aCloseThatNeverEndsIsLeftBehindAfterTheBoundWithAWarningNamingIt() {
		AtomicBoolean otherClosed = new AtomicBoolean();
		try (CapturedLogs logs = CapturedLogs.from(Level.WARN)) {
			boolean finished = assertTimeoutPreemptively(NEVER,
					() -> BoundedClose.closeAll(
							List.of(new BoundedClose.Closing("the hanging client", this::hang),
									new BoundedClose.Closing("the healthy client", () -> otherClosed.set(true))),
							BOUND));
			assertThat(finished).isFalse();
			assertThat(otherClosed).isTrue();
			assertThat(logs.atLeast(Level.WARN, "io.github.distlock").stream().map(CapturedLogs::fullText))
				.singleElement()
				.asString()
				.startsWith("Closing the hanging client did not finish within 200 ms")
				.contains("redis/lettuce#2278")
				.doesNotContain("healthy");
		}
	}

	@Test
	void closesThatFinishInTimeAreWaitedForWithoutAWarning() {
		AtomicBoolean closed = new AtomicBoolean();
		try (CapturedLogs logs = CapturedLogs.from(Level.WARN)) {
			assertThat(BoundedClose.close("the client", () -> closed.set(true), NEVER)).isTrue();
			assertThat(closed).isTrue();
			assertThat(logs.atLeast(Level.WARN, "io.github.distlock")).isEmpty();
		}
	}

	@Test
	void aCloseThatThrowsIsLoggedAndDoesNotStopTheOthers() {
		AtomicBoolean otherClosed = new AtomicBoolean();
		try (CapturedLogs logs = CapturedLogs.from(Level.WARN)) {
			boolean finished = BoundedClose.closeAll(List.of(new BoundedClose.Closing("the failing client", () -> {
				throw new IllegalStateException("boom");
			}), new BoundedClose.Closing("the healthy client", () -> otherClosed.set(true))), NEVER);
			assertThat(finished).isTrue();
			assertThat(otherClosed).isTrue();
			assertThat(logs.atLeast(Level.WARN, "io.github.distlock").stream().map(CapturedLogs::fullText))
				.singleElement()
				.asString()
				.startsWith("Closing the failing client failed")
				.contains("boom");
		}
	}

	@Test
	void closesOfTheSameKindAreNamedOnceWithTheirNumber() {
		try (CapturedLogs logs = CapturedLogs.from(Level.WARN)) {
			BoundedClose.closeAll(List.of(new BoundedClose.Closing("an idle connection", this::hang),
					new BoundedClose.Closing("an idle connection", this::hang)), BOUND);
			assertThat(logs.atLeast(Level.WARN, "io.github.distlock").stream().map(CapturedLogs::fullText))
				.singleElement()
				.asString()
				.startsWith("Closing an idle connection (2 of them) did not finish");
		}
	}

	@Test
	void anInterruptedCallerStopsWaitingAndKeepsItsFlag() {
		try (CapturedLogs logs = CapturedLogs.from(Level.WARN)) {
			assertThat(assertTimeoutPreemptively(NEVER, () -> {
				Thread.currentThread().interrupt();
				boolean finished = BoundedClose.close("the hanging client", this::hang, NEVER);
				assertThat(Thread.currentThread().isInterrupted()).isTrue();
				return finished;
			})).isFalse();
			assertThat(logs.atLeast(Level.WARN, "io.github.distlock").stream().map(CapturedLogs::fullText))
				.singleElement()
				.asString()
				.contains("before this thread was interrupted");
		}
	}

	@Test
	void theCloseRunsOnADaemonThread() throws InterruptedException {
		CountDownLatch ran = new CountDownLatch(1);
		AtomicBoolean daemon = new AtomicBoolean();
		BoundedClose.close("the client", () -> {
			daemon.set(Thread.currentThread().isDaemon());
			ran.countDown();
		}, NEVER);
		assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(daemon).isTrue();
	}

	private void hang() {
		try {
			this.hangs.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}

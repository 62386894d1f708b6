package io.github.distlock.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/** Runs a body on N platform threads at once and waits for all of them. */
final class Workers {

	private Workers() {
	}

	/**
	 * @throws IllegalStateException if a worker failed (first failure as cause) or did
	 * not end within {@code timeoutMillis}
	 */
	static void run(String name, int threads, long timeoutMillis, IntConsumer body) {
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> started = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			int index = i;
			Thread thread = new Thread(() -> {
				try {
					body.accept(index);
				}
				catch (Throwable e) {
					failure.compareAndSet(null, e);
				}
			}, name + "-" + i);
			thread.setDaemon(true);
			thread.start();
			started.add(thread);
		}
		long deadline = System.currentTimeMillis() + timeoutMillis;
		for (Thread thread : started) {
			try {
				thread.join(Math.max(1, deadline - System.currentTimeMillis()));
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for " + name + " workers", e);
			}
			if (thread.isAlive()) {
				throw new IllegalStateException(
						thread.getName() + " still running " + timeoutMillis + " ms after start");
			}
		}
		if (failure.get() != null) {
			throw new IllegalStateException(name + " worker failed: " + failure.get(), failure.get());
		}
	}

}

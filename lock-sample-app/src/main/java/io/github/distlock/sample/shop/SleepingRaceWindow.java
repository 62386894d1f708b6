package io.github.distlock.sample.shop;

import java.time.Duration;

/**
 * Sleeps for a fixed time, like a slower database round trip would.
 */
class SleepingRaceWindow implements RaceWindow {

	private final Duration pause;

	SleepingRaceWindow(Duration pause) {
		this.pause = pause;
	}

	@Override
	public void between(String productName) {
		if (this.pause.isZero()) {
			return;
		}
		try {
			Thread.sleep(this.pause.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while buying " + productName, ex);
		}
	}

}

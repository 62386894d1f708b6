package io.github.distlock.sample.race;

import java.util.List;

/**
 * Where a race stands: sent to a {@link RaceRunner.Progress} about every quarter second,
 * and served by {@code GET /race/progress} while an instance runs one.
 *
 * @param mode how the buyers buy
 * @param label the mode's column title
 * @param answered buyers answered so far
 * @param buyers all buyers
 * @param amount stock left, as the first instance last reported it
 * @param purchases purchase records, as the first instance last reported them
 * @param stockOverTime the stock since the buyers were released
 */
public record RaceProgress(RaceMode mode, String label, int answered, int buyers, int amount, long purchases,
		List<StockSample> stockOverTime) {

	/** The progress of a race that has finished. */
	public static RaceProgress finished(RaceResult result) {
		return new RaceProgress(result.mode(), result.label(), result.buyers(), result.buyers(), result.surplus(),
				result.records(), result.stockOverTime());
	}

	/** Whether every buyer has been answered. */
	public boolean done() {
		return this.answered == this.buyers;
	}

}

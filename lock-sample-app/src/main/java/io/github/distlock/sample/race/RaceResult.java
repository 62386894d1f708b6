package io.github.distlock.sample.race;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What one race left behind, in the terms of the article's comparison table.
 *
 * @param mode how the buyers bought
 * @param label the mode's column title
 * @param buyers concurrent buyers
 * @param stock stock before the race
 * @param surplus stock left after it ("Surplus stock")
 * @param records purchase records written ("Purchase records")
 * @param bought buyers answered {@code BOUGHT}
 * @param soldOut buyers answered {@code SOLD_OUT}
 * @param rejected buyers whose fenced write was refused as stale
 * @param failed buyers whose request failed (not answered 200)
 * @param boughtPerInstance buyers answered {@code BOUGHT} by each instance, in target
 * order
 * @param elapsedMillis from the start signal until the last buyer was answered
 * @param stockOverTime the stock the first instance reported while the race ran, from the
 * start signal until the end
 * @param exact whether exactly {@code min(stock, buyers)} were sold, recorded and taken
 * from stock, and no request failed
 * @param verdict one sentence on what happened
 * @param firstFailure the first failed request's error, if any
 */
public record RaceResult(RaceMode mode, String label, int buyers, int stock, int surplus, long records, int bought,
		int soldOut, int rejected, int failed, List<InstanceTally> boughtPerInstance, long elapsedMillis,
		List<StockSample> stockOverTime, boolean exact, String verdict, @Nullable String firstFailure) {

	static RaceResult of(RaceMode mode, int buyers, int stock, int surplus, long records, int bought, int soldOut,
			int rejected, int failed, List<InstanceTally> boughtPerInstance, long elapsedMillis,
			List<StockSample> stockOverTime, @Nullable String firstFailure) {
		long expectedSold = Math.min(stock, buyers);
		long takenFromStock = (long) stock - surplus;
		boolean exact = failed == 0 && records == expectedSold && takenFromStock == expectedSold;
		String verdict;
		if (failed > 0) {
			verdict = failed + " of " + buyers + " requests failed: " + firstFailure;
		}
		else if (exact) {
			verdict = "Exact: " + records + " sold, " + surplus + " left.";
		}
		else if (records > takenFromStock) {
			verdict = "Oversold: " + records + " purchases recorded but stock only went down by " + takenFromStock
					+ " (" + (records - takenFromStock) + " lost updates).";
		}
		else {
			verdict = "Inconsistent: " + records + " purchases recorded, stock went down by " + takenFromStock + ".";
		}
		return new RaceResult(mode, mode.label(), buyers, stock, surplus, records, bought, soldOut, rejected, failed,
				List.copyOf(boughtPerInstance), elapsedMillis, List.copyOf(stockOverTime), exact, verdict,
				firstFailure);
	}

	/**
	 * Whether more purchases were recorded than the stock had, or than the stock went
	 * down by.
	 */
	public boolean oversoldOrLostUpdates() {
		return this.records > this.stock || this.records != (long) this.stock - this.surplus;
	}

	/**
	 * How many buyers one instance served successfully.
	 *
	 * @param url the instance's base URL
	 * @param bought its {@code BOUGHT} answers
	 */
	public record InstanceTally(String url, int bought) {
	}

}

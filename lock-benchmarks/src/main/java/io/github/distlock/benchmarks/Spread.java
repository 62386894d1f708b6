package io.github.distlock.benchmarks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The median of one number over the runs of a repeated benchmark, with its spread (the
 * smallest and the largest of them).
 *
 * @param runs how many runs gave the number
 */
record Spread(double median, double min, double max, int runs) {

	/**
	 * The spread of {@code values}, leaving out the runs that gave none (NaN).
	 * @return a spread of no runs (NaN, shown as a dash) if no run gave one
	 */
	static Spread of(List<Double> values) {
		List<Double> sorted = values.stream().filter(value -> !value.isNaN()).sorted().toList();
		if (sorted.isEmpty()) {
			return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
		}
		int middle = sorted.size() / 2;
		double median = sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
		return new Spread(median, sorted.get(0), sorted.get(sorted.size() - 1), sorted.size());
	}

	/** {@code median (min–max)}, or a dash if no run gave the number. */
	String text(int decimals) {
		if (runs == 0) {
			return "—";
		}
		return Report.format(median, decimals) + " (" + Report.format(min, decimals) + "–"
				+ Report.format(max, decimals) + ")";
	}

	Map<String, Object> json(int decimals) {
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("median", Report.round(median, decimals));
		json.put("min", Report.round(min, decimals));
		json.put("max", Report.round(max, decimals));
		json.put("runs", runs);
		return json;
	}

}

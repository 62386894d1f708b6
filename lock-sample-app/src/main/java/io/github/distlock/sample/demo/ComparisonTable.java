package io.github.distlock.sample.demo;

import java.util.List;

import io.github.distlock.sample.race.RaceResult;

/**
 * The seed article's comparison table, one column per mode.
 */
final class ComparisonTable {

	private static final String ROW_FORMAT = "%-18s";

	private static final String CELL_FORMAT = "%10s";

	private ComparisonTable() {
	}

	static String render(List<RaceResult> results) {
		StringBuilder table = new StringBuilder();
		row(table, "Contrast", results.stream().map(RaceResult::label).toList());
		row(table, "Surplus stock", results.stream().map((result) -> Integer.toString(result.surplus())).toList());
		row(table, "Purchase records", results.stream().map((result) -> Long.toString(result.records())).toList());
		row(table, "Failed requests", results.stream().map((result) -> Integer.toString(result.failed())).toList());
		return table.toString();
	}

	private static void row(StringBuilder table, String title, List<String> cells) {
		table.append(String.format(ROW_FORMAT, title));
		cells.forEach((cell) -> table.append(String.format(CELL_FORMAT, cell)));
		table.append(System.lineSeparator());
	}

}

package io.github.distlock.sample.race;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How the buyers of a race buy: the {@code lock} parameter of {@code GET /product/buy}.
 */
public enum RaceMode {

	NO_LOCK("N", "No lock"),

	LOCKED("Y", "Locked"),

	FENCED("F", "Fenced");

	private final String code;

	private final String label;

	RaceMode(String code, String label) {
		this.code = code;
		this.label = label;
	}

	/** The value of the {@code lock} request parameter. */
	public String code() {
		return this.code;
	}

	/** The column title in the comparison table. */
	public String label() {
		return this.label;
	}

	/**
	 * The mode whose {@linkplain #code() code} is {@code code}.
	 * @throws IllegalArgumentException naming the valid codes if there is none
	 */
	public static RaceMode fromCode(String code) {
		return Arrays.stream(values())
			.filter((mode) -> mode.code.equals(code))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("mode must be one of "
					+ Arrays.stream(values()).map(RaceMode::code).collect(Collectors.joining(", ")) + ", was '" + code
					+ "'"));
	}

}

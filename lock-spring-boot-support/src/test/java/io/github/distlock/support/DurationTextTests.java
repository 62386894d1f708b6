package io.github.distlock.support;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.convert.DurationStyle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Durations in messages read as a user writes them in properties, and parse back.
 */
class DurationTextTests {

	@ParameterizedTest
	@CsvSource({ "PT0.3S, 300ms", "PT5S, 5s", "PT-5S, -5s", "PT0S, 0s", "PT1M, 1m", "PT90S, 90s", "PT2H, 2h",
			"PT48H, 2d", "PT1.5S, 1500ms", "PT0.000001S, 1us", "PT0.0000005S, 500ns", "PT10M0.25S, 600250ms" })
	void printsInOneUnitAsSpringBootPropertiesDo(String iso, String expected) {
		Duration duration = Duration.parse(iso);
		assertThat(DurationText.of(duration)).isEqualTo(expected);
		assertThat(DurationStyle.detectAndParse(expected)).isEqualTo(duration);
	}

	@Test
	void printsNullAsNull() {
		assertThat(DurationText.of(null)).isEqualTo("null");
	}

}

package io.github.distlock.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rest of a minimum hold time is rounded up to whole milliseconds: a lock is never
 * freed earlier than asked.
 */
class MinHoldRoundingTests {

	@Test
	void theRestOfTheMinimumHoldTimeIsRoundedUpToWholeMilliseconds() {
		assertThat(LockReleaser.keepMillis(1)).isEqualTo(1);
		assertThat(LockReleaser.keepMillis(999_999)).isEqualTo(1);
		assertThat(LockReleaser.keepMillis(1_000_000)).isEqualTo(1);
		assertThat(LockReleaser.keepMillis(1_000_001)).isEqualTo(2);
		assertThat(LockReleaser.keepMillis(4_999_999_999L)).isEqualTo(5_000);
	}

}

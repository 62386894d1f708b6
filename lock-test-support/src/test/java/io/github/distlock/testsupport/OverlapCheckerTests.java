package io.github.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import org.junit.jupiter.api.Test;

class OverlapCheckerTests {

	@Test
	void findsHoldsOfOneIdThatIntersect() {
		Hold first = new Hold("a", "x", 1, 100, 200);
		Hold inside = new Hold("b", "x", 2, 150, 160);
		Hold after = new Hold("c", "x", 3, 300, 400);
		Hold otherId = new Hold("d", "y", 1, 150, 250);
		assertThat(OverlapChecker.overlaps(List.of(after, otherId, inside, first)))
			.containsExactly(new OverlapChecker.Overlap(first, inside));
	}

	@Test
	void holdsThatOnlyTouchDoNotOverlap() {
		Hold first = new Hold("a", "x", 1, 100, 200);
		Hold next = new Hold("b", "x", 2, 200, 300);
		assertThat(OverlapChecker.overlaps(List.of(first, next))).isEmpty();
	}

	@Test
	void aLongHoldIsComparedWithEveryLaterHoldItSpans() {
		Hold longest = new Hold("a", "x", 1, 0, 1_000);
		Hold second = new Hold("b", "x", 2, 100, 200);
		Hold third = new Hold("c", "x", 3, 500, 600);
		assertThat(OverlapChecker.overlaps(List.of(longest, second, third)))
			.containsExactly(new OverlapChecker.Overlap(longest, second), new OverlapChecker.Overlap(longest, third));
	}

	@Test
	void findsTokensThatDoNotGrowInAcquisitionOrder() {
		Hold first = new Hold("a", "x", 5, 100, 200);
		Hold stale = new Hold("b", "x", 5, 300, 400);
		Hold fine = new Hold("c", "y", 1, 300, 400);
		assertThat(OverlapChecker.tokenRegressions(List.of(stale, first, fine)))
			.containsExactly(new OverlapChecker.Overlap(first, stale));
	}

	@Test
	void holdLinesRoundTripAnyText() {
		Hold hold = new Hold("jvm 1/t2", "stock:{äpfel} 100%", 42, -5, 7);
		assertThat(Hold.isHold(hold.toLine())).isTrue();
		assertThat(hold.toLine().split(" ")).hasSize(6);
		assertThat(Hold.parse(hold.toLine())).isEqualTo(hold);
		assertThatIllegalArgumentException().isThrownBy(() -> Hold.parse("HOLD a b"));
		assertThatIllegalArgumentException().isThrownBy(() -> new Hold("a", "x", 1, 10, 9))
			.withMessageContaining("ends before it starts");
	}

}

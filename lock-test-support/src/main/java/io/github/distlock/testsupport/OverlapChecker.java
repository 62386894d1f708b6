package io.github.distlock.testsupport;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks collected {@link Hold histories} for what a lock must never allow: two holders
 * of one lock id whose believed-held intervals intersect, and a fencing token that is not
 * greater than that of the hold before it.
 */
public final class OverlapChecker {

	private OverlapChecker() {
	}

	/**
	 * Every pair of holds of one lock id whose intervals intersect; empty for a correct
	 * history. Each hold is reported with the earlier-starting hold that reaches furthest
	 * before it.
	 */
	public static List<Overlap> overlaps(Collection<Hold> holds) {
		List<Overlap> overlaps = new ArrayList<>();
		for (List<Hold> ofOneId : byLockId(holds).values()) {
			Hold furthest = null;
			for (Hold hold : ofOneId) {
				if (furthest != null && hold.overlaps(furthest)) {
					overlaps.add(new Overlap(furthest, hold));
				}
				if (furthest == null || hold.releasedNanos() - furthest.releasedNanos() > 0) {
					furthest = hold;
				}
			}
		}
		return overlaps;
	}

	/**
	 * Every pair of consecutive holds of one lock id (in acquisition order) where the
	 * later one's fencing token is not greater than the earlier one's; empty for a
	 * correct history.
	 */
	public static List<Overlap> tokenRegressions(Collection<Hold> holds) {
		List<Overlap> regressions = new ArrayList<>();
		for (List<Hold> ofOneId : byLockId(holds).values()) {
			for (int i = 1; i < ofOneId.size(); i++) {
				if (ofOneId.get(i).token() <= ofOneId.get(i - 1).token()) {
					regressions.add(new Overlap(ofOneId.get(i - 1), ofOneId.get(i)));
				}
			}
		}
		return regressions;
	}

	private static Map<String, List<Hold>> byLockId(Collection<Hold> holds) {
		Map<String, List<Hold>> byId = new LinkedHashMap<>();
		for (Hold hold : holds) {
			byId.computeIfAbsent(hold.lockId(), id -> new ArrayList<>()).add(hold);
		}
		// nanoTime values may wrap in theory, so compare differences, not values.
		Comparator<Hold> byStart = (a, b) -> Long.signum(a.acquiredNanos() - b.acquiredNanos());
		byId.values().forEach(list -> list.sort(byStart));
		return byId;
	}

	/** Two holds that violate an invariant, the earlier-starting first. */
	public record Overlap(Hold first, Hold second) {

		@Override
		public String toString() {
			return "'" + first.lockId() + "': " + first.client() + " (token " + first.token() + ", "
					+ first.acquiredNanos() + ".." + first.releasedNanos() + ") and " + second.client() + " (token "
					+ second.token() + ", " + second.acquiredNanos() + ".." + second.releasedNanos() + ")";
		}
	}

}

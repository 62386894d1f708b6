package io.github.distlock.store;

import java.util.ArrayList;
import java.util.List;

/**
 * The release receipt of a key of the {@link InMemoryLockStore}, as in Redis: the owners
 * whose part in the lock ended, most recent first, at most {@link #ENDED_OWNERS},
 * remembered until {@code untilMillis} (the fencing retention after the last of them):
 * the owner token when it released the lock, {@code ~} and the token when it ended
 * otherwise (handed the lock over, or was released while not holding it). A replayed
 * release of an owner that released answers {@link Released}; a late copy of an acquire
 * of an owner that ended either way is refused and changes nothing.
 *
 * @param owners the lines, most recent first
 * @param untilMillis the clock time until which they are remembered
 */
record InMemoryReceipt(List<String> owners, long untilMillis) {

	/** How many ended owners a receipt remembers, as in the Redis store. */
	static final int ENDED_OWNERS = 16;

	static final InMemoryReceipt NONE = new InMemoryReceipt(List.of(), 0);

	/** Whether {@code owner} released the lock, as remembered at {@code nowMillis}. */
	boolean hasReleased(String owner, long nowMillis) {
		return nowMillis < this.untilMillis && this.owners.contains(owner);
	}

	/** Whether the part of {@code owner} ended, as remembered at {@code nowMillis}. */
	boolean hasEnded(String owner, long nowMillis) {
		return nowMillis < this.untilMillis && (this.owners.contains(owner) || this.owners.contains("~" + owner));
	}

	/**
	 * This receipt with {@code owner} noted at {@code nowMillis} as released (or, if not
	 * {@code released}, as ended otherwise), remembered for {@code retentionMillis}.
	 */
	InMemoryReceipt noted(long nowMillis, long retentionMillis, String owner, boolean released) {
		List<String> owners = new ArrayList<>(ENDED_OWNERS);
		owners.add(released ? owner : "~" + owner);
		if (nowMillis < this.untilMillis) {
			for (String earlier : this.owners) {
				if (owners.size() >= ENDED_OWNERS) {
					break;
				}
				if (!earlier.equals(owner) && !earlier.equals("~" + owner)) {
					owners.add(earlier);
				}
			}
		}
		return new InMemoryReceipt(List.copyOf(owners), InMemoryLockState.plus(nowMillis, retentionMillis));
	}

}

package io.github.distlock.redis;

import java.util.ArrayList;
import java.util.List;

import io.github.distlock.store.ReleaseListener;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a message on a release channel is told to a {@link ReleaseListener}: a release, a
 * grant with its fencing token, or (from a client of an earlier version, or unreadable) a
 * grant without one, which only wakes the waiter.
 */
class ReleaseAnnouncementTests {

	private final List<String> heard = new ArrayList<>();

	private final ReleaseListener listener = new ReleaseListener() {

		@Override
		public void released(String key) {
			ReleaseAnnouncementTests.this.heard.add("released " + key);
		}

		@Override
		public void granted(String key, String owner) {
			ReleaseAnnouncementTests.this.heard.add("granted " + key + " to " + owner + ", token unknown");
		}

		@Override
		public void granted(String key, String owner, long fencingToken) {
			ReleaseAnnouncementTests.this.heard.add("granted " + key + " to " + owner + ", token " + fencingToken);
		}

	};

	@Test
	void aKeyAloneIsARelease() {
		RedisReleaseNotifications.announced(this.listener, "distlock:{a}");
		assertThat(this.heard).containsExactly("released distlock:{a}");
	}

	@Test
	void aKeyOwnerAndTokenIsAGrantWithItsToken() {
		RedisReleaseNotifications.announced(this.listener, "distlock:{a}\nabc123\n1764000000000001");
		assertThat(this.heard).containsExactly("granted distlock:{a} to abc123, token 1764000000000001");
	}

	@Test
	void aGrantWithoutAReadableTokenOnlyWakesTheWaiter() {
		RedisReleaseNotifications.announced(this.listener, "distlock:{a}\nabc123");
		RedisReleaseNotifications.announced(this.listener, "distlock:{a}\nabc123\n");
		RedisReleaseNotifications.announced(this.listener, "distlock:{a}\nabc123\nnot-a-number");
		RedisReleaseNotifications.announced(this.listener, "distlock:{a}\nabc123\n-5");
		assertThat(this.heard).containsOnly("granted distlock:{a} to abc123, token unknown").hasSize(4);
	}

}

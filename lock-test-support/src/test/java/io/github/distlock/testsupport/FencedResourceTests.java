package io.github.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class FencedResourceTests {

	@Test
	void acceptsOnlyTokensNewerThanTheLastAccepted() {
		try (RedisServer store = RedisServer.start(); FencedResource resource = FencedResource.connect(store)) {
			assertThat(resource.value("r")).isNull();
			assertThat(resource.write("r", 10, "first")).isTrue();
			assertThat(resource.write("r", 10, "same token")).isFalse();
			assertThat(resource.write("r", 9, "stale")).isFalse();
			assertThat(resource.write("r", 1_700_000_000_000_001L, "newer")).isTrue();
			assertThat(resource.write("r", 1_700_000_000_000_000L, "one less")).isFalse();
			assertThat(resource.write("other", 1, "independent")).isTrue();

			assertThat(resource.value("r")).isEqualTo("newer");
			assertThat(resource.lastToken("r")).isEqualTo(1_700_000_000_000_001L);
			assertThat(resource.accepted("r")).isEqualTo(2);
			assertThat(resource.rejected("r")).isEqualTo(3);
			assertThat(resource.rejectedEverywhere()).isEqualTo(3);
			assertThatIllegalArgumentException().isThrownBy(() -> resource.write("r", 0, "x"));
		}
	}

}

package io.github.distlock.redis;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class LockKeysTests {

	private final LockKeys keys = new LockKeys("distlock:");

	@Test
	void plainIdsAreReadable() {
		assertThat(this.keys.lockKey("stock:apple")).isEqualTo("distlock:{stock:apple}");
		assertThat(LockKeys.fenceKey(this.keys.lockKey("stock:apple"))).isEqualTo("distlock:{stock:apple}:fence");
		assertThat(this.keys.lockKey("Äpfel")).isEqualTo("distlock:{Äpfel}");
	}

	@Test
	void bracesCannotChooseTheHashSlot() {
		String key = this.keys.lockKey("}{evil");
		assertThat(key).isEqualTo("distlock:{%7D%7Bevil}");
		// The hash tag is the first {...}: exactly our encoded id.
		assertThat(key.substring(key.indexOf('{') + 1, key.indexOf('}'))).isEqualTo("%7D%7Bevil");
	}

	@Test
	void distinctIdsNeverShareAKey() {
		List<String> ids = List.of("a", "a%", "a%25", "a{", "a%7B", "#x", "%23x", "a\r\nb", "a%0D%0Ab", "\uD800",
				"\uDC00", "%uD800", "\uD83D\uDE00", "", " ", "a:b", "a::b", "x".repeat(LockKeys.MAX_ENCODED_LENGTH),
				"x".repeat(LockKeys.MAX_ENCODED_LENGTH + 1), "x".repeat(LockKeys.MAX_ENCODED_LENGTH + 2),
				"#" + "0".repeat(64));
		Set<String> encoded = new HashSet<>();
		for (String id : ids) {
			assertThat(encoded.add(this.keys.lockKey(id))).as("key of %s", id).isTrue();
		}
	}

	@Test
	void controlCharactersAreEscaped() {
		assertThat(this.keys.lockKey("a\r\nb")).isEqualTo("distlock:{a%0D%0Ab}");
	}

	@Test
	void longIdsAreHashedToABoundedKey() {
		String huge = "k".repeat(1_000_000);
		String key = this.keys.lockKey(huge);
		assertThat(key).startsWith("distlock:{#").hasSize("distlock:{#}".length() + 64);
		assertThat(this.keys.lockKey(huge + "x")).isNotEqualTo(key);
	}

	@Test
	void prefixWithBracesIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> new LockKeys("a{")).withMessageContaining("key-prefix");
		assertThatIllegalArgumentException().isThrownBy(() -> new LockKeys("")).withMessageContaining("key-prefix");
	}

}

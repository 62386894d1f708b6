package io.github.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import org.junit.jupiter.api.Test;

class RedisServerAclTests {

	@Test
	void aclUserHasExactlyItsRulesAndTheDefaultUserKeepsEverything() {
		try (RedisServer redis = RedisServer.builder().aclUser("reader", "pw", "~app:*", "&app:*", "+get").start()) {
			String reader = List.of(redis.command("ACL", "LIST").split("\n"))
				.stream()
				.filter(line -> line.startsWith("user reader "))
				.findFirst()
				.orElseThrow();
			assertThat(reader).startsWith("user reader on ").contains(" ~app:* ", " &app:* ", " -@all +get");
			// RedisServer itself still runs everything as the default user.
			assertThat(redis.command("SET", "other:x", "1")).isEqualTo("OK");
		}
	}

	@Test
	void aclUserRejectsTheDefaultUserAndEmptyPasswords() {
		assertThatIllegalArgumentException().isThrownBy(() -> RedisServer.builder().aclUser("default", "pw"))
			.withMessageContaining("default");
		assertThatIllegalArgumentException().isThrownBy(() -> RedisServer.builder().aclUser("u", ""))
			.withMessageContaining("password");
	}

}

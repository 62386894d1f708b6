package io.github.distlock.aspectj;

import java.time.Duration;

import io.github.distlock.testsupport.ClientJvm;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default proxy mode with a class the aspect was woven into (in a JVM of its own: the
 * aspect is one per class loader, and no context may have bound it before): the proxy
 * locks the call that goes through it, once; the aspect, bound to no context, locks
 * nothing and warns; the call through {@code this} stays unlocked, as in proxy mode
 * without weaving.
 */
class ProxyModeWithWovenClassesTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@Test
	void theProxyLocksOnceAndTheUnboundAspectNever() {
		try (ClientJvm instance = ClientJvm.builder(ProxyModeInstance.class)
			.args(Integer.toString(redis.port()))
			.start()) {
			Duration timeout = Duration.ofMinutes(3);
			assertThat(instance.awaitLine((line) -> line.startsWith("PROXIED"), timeout)).isEqualTo("PROXIED true");
			assertThat(instance.awaitLine((line) -> line.startsWith("SEEN"), timeout))
				.isEqualTo("SEEN [fill pear handle=true, fill apple handle=false]");
			assertThat(instance.awaitLine((line) -> line.startsWith("ACQUISITIONS"), timeout))
				.isEqualTo("ACQUISITIONS [shelf:pear]");
			assertThat(instance.lines())
				.filteredOn((line) -> line.contains("runs without the lock of DistributedLockAspect"))
				.singleElement()
				.asString()
				.contains(Shelf.class.getName() + ".fill runs without the lock of DistributedLockAspect");
			assertThat(instance.awaitExit(timeout)).isZero();
		}
	}

}

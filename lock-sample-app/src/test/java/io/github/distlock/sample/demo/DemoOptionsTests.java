package io.github.distlock.sample.demo;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class DemoOptionsTests {

	@Test
	void defaultsAreTheArticlesExperiment() {
		DemoOptions options = DemoOptions.parse(new String[] { "--demo" });
		assertThat(options.instances()).isEqualTo(2);
		assertThat(options.buyers()).isEqualTo(200);
		assertThat(options.stock()).isEqualTo(100);
		assertThat(options.keepRunning()).isFalse();
		assertThat(options.redis()).isNull();
	}

	@Test
	void parsesEveryOption() {
		DemoOptions options = DemoOptions.parse(new String[] { "--demo", "--keep-running", "--instances=3",
				"--buyers=50", "--stock=10", "--redis=127.0.0.1:7000", "--jar=app.jar", "--work-dir=logs" });
		assertThat(options).isEqualTo(new DemoOptions(true, 3, 50, 10, new RedisAddress("127.0.0.1", 7000), false,
				Path.of("app.jar"), Path.of("logs"), false));
	}

	@Test
	void redisStartAsksForARedisOfTheDemosOwn() {
		DemoOptions options = DemoOptions.parse(new String[] { "--demo", "--redis=start" });
		assertThat(options.startRedis()).isTrue();
		assertThat(options.redis()).isNull();
	}

	@Test
	void rejectsBadOptionsNamingThem() {
		assertThatIllegalArgumentException().isThrownBy(() -> DemoOptions.parse(new String[] { "--instanses=2" }))
			.withMessage("Unknown option '--instanses=2'");
		assertThatIllegalArgumentException().isThrownBy(() -> DemoOptions.parse(new String[] { "--buyers=many" }))
			.withMessage("--buyers must be a whole number, was 'many'");
		assertThatIllegalArgumentException().isThrownBy(() -> DemoOptions.parse(new String[] { "--instances=9" }))
			.withMessage("--instances must be between 1 and 8, was 9");
		assertThatIllegalArgumentException().isThrownBy(() -> DemoOptions.parse(new String[] { "--stock" }))
			.withMessage("--stock needs a value: --stock=...");
		assertThatIllegalArgumentException().isThrownBy(() -> DemoOptions.parse(new String[] { "--redis=nohost" }))
			.withMessage("--redis must be host:port, was 'nohost'");
		assertThatIllegalArgumentException().isThrownBy(() -> DemoOptions.parse(new String[] { "--redis=h:99999" }))
			.withMessage("--redis: Redis port must be between 1 and 65535, was 99999");
	}

	@Test
	void badOptionsExitWithUsage() {
		ByteArrayOutputStream output = new ByteArrayOutputStream();
		int status = DemoCommand.run(new String[] { "--demo", "--nope" },
				new PrintStream(output, true, StandardCharsets.UTF_8));
		assertThat(status).isEqualTo(DemoCommand.EXIT_USAGE);
		assertThat(output.toString(StandardCharsets.UTF_8)).contains("Error: Unknown option '--nope'", "Usage:");
	}

}

package io.github.distlock.aspectj;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import io.github.distlock.config.EnableDistributedLock;
import io.github.distlock.testsupport.Hold;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.util.ClassUtils;

/**
 * One application instance in a JVM of its own: a Spring Boot context in ASPECTJ mode
 * (or, with {@code --mode=proxy}, the default proxy mode) with a {@link CounterWork}
 * bean. It prints {@code READY}, waits for {@code go} on its standard input, increments
 * the counter {@code --iterations} times, prints every hold as a {@link Hold} line and
 * {@code DONE}, and exits.
 * <p>
 * Arguments: {@code --port=} of Redis, {@code --counter=} class name, {@code --name=},
 * {@code --iterations=}, {@code --mode=aspectj|proxy}.
 */
public final class ExclusionInstance {

	private ExclusionInstance() {
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> options = new HashMap<>();
		for (String arg : args) {
			int equals = arg.indexOf('=');
			options.put(arg.substring(2, equals), arg.substring(equals + 1));
		}
		String name = options.get("name");
		int iterations = Integer.parseInt(options.get("iterations"));
		Class<?> counterClass = ClassUtils.forName(options.get("counter"), ExclusionInstance.class.getClassLoader());
		Class<?> configuration = "proxy".equals(options.get("mode")) ? ProxyMode.class : AspectJMode.class;
		SpringApplication application = new SpringApplication(configuration);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.addInitializers((context) -> ((GenericApplicationContext) context).registerBean(counterClass));
		try (ConfigurableApplicationContext context = application.run("--spring.data.redis.host=127.0.0.1",
				"--spring.data.redis.port=" + options.get("port"), "--spring.data.redis.timeout=10s",
				// The lock is not fair: an instance may wait while the other takes it
				// many times in a row.
				"--distributed-lock.wait-time=2m", "--spring.main.banner-mode=off")) {
			CounterWork counter = (CounterWork) context.getBean(counterClass);
			System.out.println("READY");
			BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			String line = input.readLine();
			if (!"go".equals(line)) {
				System.out.println("ABORTED " + line);
				return;
			}
			for (int i = 0; i < iterations; i++) {
				counter.increment();
			}
			for (long[] hold : counter.holds()) {
				System.out.println(new Hold(name, CounterWork.LOCK, hold[0], hold[1], hold[2]).toLine());
			}
			System.out.println("DONE " + counter.holds().size());
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ImportRedisAndLockAutoConfiguration
	@EnableDistributedLock(mode = AdviceMode.ASPECTJ)
	static class AspectJMode {

	}

	@Configuration(proxyBeanMethods = false)
	@ImportRedisAndLockAutoConfiguration
	static class ProxyMode {

	}

}

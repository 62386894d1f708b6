package io.github.distlock.aspectj;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;

/**
 * An application in the default proxy mode, in a JVM where no context ever bound the
 * aspect, whose {@link Shelf} is woven nevertheless. Calls the locked method through the
 * proxy and through {@code this}, and prints what was locked. Argument: the Redis port.
 */
public final class ProxyModeInstance {

	private ProxyModeInstance() {
	}

	public static void main(String[] args) {
		List<String> acquisitions = new CopyOnWriteArrayList<>();
		SpringApplication application = new SpringApplication(ProxyMode.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.addInitializers((context) -> {
			GenericApplicationContext generic = (GenericApplicationContext) context;
			generic.registerBean(Shelf.class);
			generic.registerBean(AspectJModeTests.CountingLockServices.class,
					() -> new AspectJModeTests.CountingLockServices(acquisitions));
		});
		try (ConfigurableApplicationContext context = application.run("--spring.data.redis.host=127.0.0.1",
				"--spring.data.redis.port=" + args[0], "--spring.main.banner-mode=off")) {
			Shelf shelf = context.getBean(Shelf.class);
			System.out.println("PROXIED " + AopUtils.isAopProxy(shelf));
			shelf.fill("pear");
			shelf.restock("apple");
			System.out.println("SEEN " + shelf.seen());
			System.out.println("ACQUISITIONS " + acquisitions);
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ImportRedisAndLockAutoConfiguration
	@ImportAutoConfiguration(AopAutoConfiguration.class)
	static class ProxyMode {

	}

}

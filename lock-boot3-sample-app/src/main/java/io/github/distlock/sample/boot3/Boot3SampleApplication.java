package io.github.distlock.sample.boot3;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot 3.5 application with only {@code lock-spring-boot3-starter}: a stock that
 * an annotated method sells from, behind a small HTTP API.
 */
@SpringBootApplication
public class Boot3SampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(Boot3SampleApplication.class, args);
	}

}

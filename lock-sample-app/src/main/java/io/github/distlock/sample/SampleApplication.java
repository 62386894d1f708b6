package io.github.distlock.sample;

import java.util.Arrays;

import io.github.distlock.sample.demo.DemoCommand;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * Runs one shop instance, or with {@code --demo} the whole demo: see {@link DemoCommand}.
 */
@SpringBootApplication
@EnableConfigurationProperties(SampleProperties.class)
public class SampleApplication {

	public static void main(String[] args) {
		if (Arrays.asList(args).contains(DemoCommand.FLAG)) {
			System.exit(DemoCommand.run(args));
		}
		SpringApplication.run(SampleApplication.class, args);
	}

}

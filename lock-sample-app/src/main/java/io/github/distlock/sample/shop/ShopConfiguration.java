package io.github.distlock.sample.shop;

import io.github.distlock.sample.SampleProperties;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class ShopConfiguration {

	@Bean
	RaceWindow raceWindow(SampleProperties properties) {
		return new SleepingRaceWindow(properties.getRaceWindow());
	}

}

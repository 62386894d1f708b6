package io.github.distlock.docs.shop;

import io.github.distlock.observation.DefaultLockAcquireObservationConvention;
import io.github.distlock.observation.LockAcquireObservationContext;
import io.github.distlock.observation.LockAcquireObservationConvention;
import io.micrometer.common.KeyValue;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A convention that tags acquisitions by the second part of the lock id.
 */
@Configuration(proxyBeanMethods = false)
public class LockObservationConfiguration {

	// tag::convention[]
	@Bean
	LockAcquireObservationConvention lockAcquireObservationConvention() {
		return new DefaultLockAcquireObservationConvention() {

			@Override
			protected KeyValue name(LockAcquireObservationContext context) {
				// "tenant-42:invoice:7" is tagged "invoice": no tag value per tenant
				String[] parts = context.getLockId().split(":");
				return KeyValue.of("name", (parts.length > 1) ? parts[1] : "unnamed");
			}

		};
	}
	// end::convention[]

}

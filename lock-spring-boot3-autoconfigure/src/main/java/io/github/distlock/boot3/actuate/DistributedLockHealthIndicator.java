package io.github.distlock.boot3.actuate;

import io.github.distlock.LockInspection;
import io.github.distlock.actuate.LockHealth;

import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * Health of the locks of this instance on Spring Boot 3.5's health API:
 * {@link LockHealth} (DOWN when a held lock's renewal is failing or the store cannot be
 * verified; UP otherwise, with held locks, locks lost and failed renewals as details).
 */
public class DistributedLockHealthIndicator extends AbstractHealthIndicator {

	private final LockInspection lockService;

	public DistributedLockHealthIndicator(LockInspection lockService) {
		super("Distributed lock health check failed");
		this.lockService = lockService;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		LockHealth health = LockHealth.check(this.lockService);
		builder.withDetails(health.details());
		Throwable failure = health.failure();
		if (failure != null) {
			builder.down(failure);
		}
		else if (health.up()) {
			builder.up();
		}
		else {
			builder.down();
		}
	}

}

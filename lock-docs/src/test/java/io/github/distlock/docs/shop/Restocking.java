package io.github.distlock.docs.shop;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.github.distlock.LockHandle;
import io.github.distlock.LockService;

import org.springframework.stereotype.Component;

/**
 * {@link LockService}, each method in use.
 */
@Component
public class Restocking {

	private final LockService locks;

	private final Inventory inventory;

	public Restocking(LockService locks, Inventory inventory) {
		this.locks = locks;
		this.inventory = inventory;
	}

	// tag::lock[]
	public void restock(String sku, int amount) {
		try (LockHandle lock = this.locks.lock("stock:" + sku, Duration.ofSeconds(5))) {
			this.inventory.save(sku, this.inventory.amount(sku) + amount);
		}
	}
	// end::lock[]

	// tag::try-lock[]
	public boolean restockIfFree(String sku, int amount) {
		Optional<LockHandle> lock = this.locks.tryLock("stock:" + sku, Duration.ZERO, null);
		if (lock.isEmpty()) {
			return false; // held elsewhere: try again later
		}
		try (LockHandle held = lock.get()) {
			this.inventory.save(sku, this.inventory.amount(sku) + amount);
			return true;
		}
	}
	// end::try-lock[]

	// tag::execute-locked[]
	public int count(String sku) {
		return this.locks.executeLocked("stock:" + sku, Duration.ofSeconds(5), () -> this.inventory.amount(sku));
	}

	public void clear(String sku) {
		this.locks.runLocked("stock:" + sku, Duration.ofSeconds(5), () -> this.inventory.save(sku, 0));
	}
	// end::execute-locked[]

	// tag::extend[]
	public void importAll(List<String> skus) {
		Optional<LockHandle> lock = this.locks.tryLock("import", Duration.ZERO, Duration.ofMinutes(1));
		if (lock.isEmpty()) {
			return;
		}
		try (LockHandle held = lock.get()) {
			for (String sku : skus) {
				if (!held.extend(Duration.ofMinutes(1))) {
					return; // lost: stop writing, another instance may hold it now
				}
				this.inventory.stock(sku, 100);
			}
		}
	}
	// end::extend[]

	// tag::fair[]
	public void restockInTurn(String sku, int amount) {
		try (LockHandle lock = this.locks.fair().lock("stock:" + sku, Duration.ofSeconds(30))) {
			this.inventory.save(sku, this.inventory.amount(sku) + amount);
		}
	}
	// end::fair[]

	// tag::read[]
	public int amountWhileNoRestockRuns(String sku) {
		// Shared with readers; excludes restock(...), the same id exclusively
		return this.locks.read().executeLocked("stock:" + sku, Duration.ofSeconds(5), () -> this.inventory.amount(sku));
	}
	// end::read[]

	// tag::permits[]
	public boolean exportIfAPermitIsFree(String report) {
		Optional<LockHandle> permit = this.locks.permits(4).tryLock("exports", Duration.ZERO, null);
		if (permit.isEmpty()) {
			return false; // 4 exports run already, on any instances
		}
		try (LockHandle held = permit.get()) {
			this.inventory.save("exported:" + report, 1);
			return true;
		}
	}
	// end::permits[]

	// tag::is-locked[]
	public boolean busy(String sku) {
		return this.locks.isLocked("stock:" + sku); // any instance, one Redis round trip
	}
	// end::is-locked[]

}

package io.github.distlock.docs.shop;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockContext;
import io.github.distlock.LockMode;
import io.github.distlock.MultiLockHandle;
import io.github.distlock.OnLockFailure;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;

/**
 * The annotation's attributes, each in use.
 */
@Service
public class Billing {

	private final AtomicInteger reports = new AtomicInteger();

	// tag::attributes[]
	@DistributedLock(name = "invoice", key = "#order.id", waitTime = "2s", leaseTime = "${billing.invoice-lease:1m}",
			onFailure = OnLockFailure.SKIP)
	public Optional<String> invoice(Order order) {
		return Optional.of("invoice for " + order.id()); // Optional.empty() when skipped
	}
	// end::attributes[]

	// tag::keys[]
	@DistributedLock(name = "order", key = "#order.id") // a property of an argument
	public void ship(Order order) {
	}

	@DistributedLock(name = "transfer", key = "#from + '->' + #to") // literals, +
	public void transfer(String from, String to, long cents) {
	}

	@DistributedLock(name = "label", key = "#p0") // by position: #p0 or #a0
	public void printLabel(String parcelId) {
	}
	// end::keys[]

	// tag::multi-key[]
	@DistributedLock(name = "account", key = "{#from, #to}") // both accounts, all or none
	public Map<String, Long> move(String from, String to, long cents) {
		MultiLockHandle held = (MultiLockHandle) LockContext.current().orElseThrow();
		return held.fencingTokens(); // a token per account
	}

	@DistributedLock(name = "sku", key = "#skus") // one lock per distinct sku
	public void pick(List<String> skus) {
	}
	// end::multi-key[]

	// tag::scheduled[]
	@Scheduled(cron = "0 0 * * * *") // fires on every instance
	@DistributedLock(name = "hourly-report", waitTime = "0", minHoldTime = "1m", onFailure = OnLockFailure.SKIP)
	public void hourlyReport() {
		this.reports.incrementAndGet(); // runs on one instance per hour
	}
	// end::scheduled[]

	// tag::fair[]
	@DistributedLock(name = "seat", key = "#event", fair = true) // in arrival order
	public void reserveSeat(String event, String guest) {
	}
	// end::fair[]

	// tag::read-write[]
	@DistributedLock(name = "catalog", key = "#sku", mode = LockMode.READ) // shared
	public String describe(String sku) {
		return "sku " + sku;
	}

	@DistributedLock(name = "catalog", key = "#sku") // WRITE, the default: alone
	public void reprice(String sku, long cents) {
	}
	// end::read-write[]

	// tag::permits[]
	@DistributedLock(name = "carrier-api", permits = 3) // 3 at most, all instances
	public void bookPickup(String parcelId) {
	}
	// end::permits[]

	public int reportsRun() {
		return this.reports.get();
	}

}

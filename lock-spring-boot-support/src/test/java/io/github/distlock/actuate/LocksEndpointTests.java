package io.github.distlock.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import io.github.distlock.LockHandle;
import io.github.distlock.OnLockFailure;
import io.github.distlock.autoconfigure.LineUnderTest;
import io.github.distlock.actuate.LocksEndpoint.HeldLockDescriptor;
import io.github.distlock.actuate.LocksEndpoint.LockDescriptor;
import io.github.distlock.redis.RedisLockClients;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * {@link LocksEndpoint} on a real Redis, with another instance holding locks too.
 */
class LocksEndpointTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	private LockEngine service;

	private LocksEndpoint endpoint;

	@BeforeEach
	void setUp() {
		this.service = this.clients.newService();
		this.endpoint = new LocksEndpoint(this.service);
	}

	@Test
	void listsTheLocksThisInstanceHolds() {
		Instant before = Instant.now();
		try (LockHandle outer = this.service.tryLock("stock", "stock:apple", Duration.ZERO, null, OnLockFailure.THROW)
			.orElseThrow();
				LockHandle inner = this.service.lock("stock:apple", Duration.ZERO);
				LockHandle fixed = this.service.tryLock("report", Duration.ZERO, Duration.ofMinutes(5)).orElseThrow();
				LockHandle elsewhere = this.clients.newService().lock("elsewhere", Duration.ZERO)) {
			// Read by its holder: issued, and shown; "report"'s is never read, so 0.
			long token = outer.fencingToken();
			assertThat(this.endpoint.locks().locks()).hasSize(2).satisfiesExactlyInAnyOrder((stock) -> {
				assertThat(stock.name()).isEqualTo("stock");
				assertThat(stock.lockId()).isEqualTo("stock:apple");
				assertThat(stock.fencingToken()).isEqualTo(token).isPositive();
				assertThat(stock.heldSince()).isBetween(before.minusSeconds(1), Instant.now());
				assertThat(stock.leaseRemainingMillis()).isPositive().isLessThanOrEqualTo(30_000);
				assertThat(stock.reentrancyDepth()).isEqualTo(2);
				assertThat(stock.autoRenewed()).isTrue();
				assertThat(stock.renewalFailing()).isFalse();
			}, (report) -> {
				assertThat(report.name()).isNull();
				assertThat(report.lockId()).isEqualTo("report");
				assertThat(report.reentrancyDepth()).isOne();
				assertThat(report.autoRenewed()).isFalse();
				assertThat(report.fencingToken()).isZero();
				assertThat(report.leaseRemainingMillis()).isGreaterThan(30_000).isLessThanOrEqualTo(300_000);
			});
		}
		assertThat(this.endpoint.locks().locks()).isEmpty();
	}

	/**
	 * READ holds and permits are rows of their own kind, not look-alikes of exclusive
	 * locks: each says its mode, and a permit the number of permits and how many this
	 * instance holds (issue 39).
	 */
	@Test
	void saysTheModeOfEachHoldAndHowManyPermitsThisInstanceHolds() {
		try (LockHandle write = this.service.lock("stock:apple", Duration.ZERO);
				LockHandle read = this.service.read().lock("catalog:apple", Duration.ZERO);
				LockHandle first = this.service.permits(3).lock("exports", Duration.ZERO);
				LockHandle second = this.service.permits(3).lock("exports", Duration.ZERO)) {
			List<HeldLockDescriptor> rows = this.endpoint.locks().locks();
			assertThat(rows)
				.extracting(HeldLockDescriptor::lockId, HeldLockDescriptor::mode, HeldLockDescriptor::permits,
						HeldLockDescriptor::permitsHeldByThisInstance)
				.containsExactlyInAnyOrder(tuple("stock:apple", "EXCLUSIVE", null, null),
						tuple("catalog:apple", "READ", null, null), tuple("exports", "PERMITS", 3, 2),
						tuple("exports", "PERMITS", 3, 2));
			assertThat(rows).filteredOn((row) -> row.lockId().equals("exports"))
				.extracting(HeldLockDescriptor::fencingToken)
				.containsExactlyInAnyOrder(first.fencingToken(), second.fencingToken())
				.doesNotHaveDuplicates();

			String locks = LineUnderTest.toEndpointJson(this.endpoint.locks());
			assertThat(JsonPath.<List<String>>read(locks, "$.locks[?(@.lockId == 'exports')].mode"))
				.containsExactly("PERMITS", "PERMITS");
			assertThat(JsonPath.<List<Integer>>read(locks, "$.locks[?(@.lockId == 'exports')].permits"))
				.containsExactly(3, 3);
			assertThat(
					JsonPath.<List<Integer>>read(locks, "$.locks[?(@.lockId == 'exports')].permitsHeldByThisInstance"))
				.containsExactly(2, 2);
			assertThat(JsonPath.<List<String>>read(locks, "$.locks[?(@.lockId == 'stock:apple')].mode"))
				.containsExactly("EXCLUSIVE");
			assertThat(JsonPath.<List<Object>>read(locks, "$.locks[?(@.lockId == 'stock:apple')].permits")).isEmpty();
			String one = LineUnderTest.toEndpointJson(this.endpoint.lock(new String[] { "exports" }));
			assertThat(JsonPath.<String>read(one, "$.heldByThisInstance.mode")).isEqualTo("PERMITS");
			assertThat(JsonPath.<Integer>read(one, "$.heldByThisInstance.permitsHeldByThisInstance")).isEqualTo(2);
		}
	}

	@Test
	void rendersAsActuatorsEndpointMapperRendersIt() {
		try (LockHandle handle = this.service.tryLock("stock", "stock:apple", Duration.ZERO, null, OnLockFailure.THROW)
			.orElseThrow()) {
			long token = handle.fencingToken();
			String locks = LineUnderTest.toEndpointJson(this.endpoint.locks());
			assertThat(JsonPath.<String>read(locks, "$.locks[0].name")).isEqualTo("stock");
			assertThat(JsonPath.<String>read(locks, "$.locks[0].lockId")).isEqualTo("stock:apple");
			assertThat(JsonPath.<Long>read(locks, "$.locks[0].fencingToken")).isEqualTo(token);
			assertThat(Instant.parse(JsonPath.read(locks, "$.locks[0].heldSince"))).isBefore(Instant.now());
			assertThat(JsonPath.<Integer>read(locks, "$.locks[0].reentrancyDepth")).isOne();
			assertThat(JsonPath.<Boolean>read(locks, "$.locks[0].renewalFailing")).isFalse();
			String one = LineUnderTest.toEndpointJson(this.endpoint.lock(new String[] { "stock:apple" }));
			assertThat(JsonPath.<Boolean>read(one, "$.locked")).isTrue();
			assertThat(JsonPath.<Integer>read(one, "$.leaseRemainingMillis")).isPositive();
			assertThat(JsonPath.<String>read(one, "$.heldByThisInstance.lockId")).isEqualTo("stock:apple");
		}
		assertThat(LineUnderTest.toEndpointJson(this.endpoint.lock(new String[] { "stock:apple" })))
			.isEqualTo("{\"lockId\":\"stock:apple\",\"locked\":false}");
	}

	@Test
	void tellsWhetherAnyInstanceHoldsALockId() {
		LockEngine other = this.clients.newService();
		try (LockHandle elsewhere = other.tryLock("files/2024/report.pdf", Duration.ZERO, Duration.ofMinutes(1))
			.orElseThrow(); LockHandle here = this.service.lock("stock:apple", Duration.ZERO)) {
			long token = here.fencingToken();
			LockDescriptor remote = this.endpoint.lock(new String[] { "files", "2024", "report.pdf" });
			assertThat(remote.lockId()).isEqualTo("files/2024/report.pdf");
			assertThat(remote.locked()).isTrue();
			assertThat(remote.leaseRemainingMillis()).isPositive().isLessThanOrEqualTo(60_000);
			assertThat(remote.heldByThisInstance()).isNull();
			LockDescriptor local = this.endpoint.lock(new String[] { "stock:apple" });
			assertThat(local.locked()).isTrue();
			HeldLockDescriptor hold = local.heldByThisInstance();
			assertThat(hold).isNotNull();
			assertThat(hold.fencingToken()).isEqualTo(token);
		}
		LockDescriptor free = this.endpoint.lock(new String[] { "stock:apple" });
		assertThat(free.locked()).isFalse();
		assertThat(free.leaseRemainingMillis()).isNull();
		assertThat(free.heldByThisInstance()).isNull();
	}

}

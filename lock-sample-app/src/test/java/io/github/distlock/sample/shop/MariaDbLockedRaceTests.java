package io.github.distlock.sample.shop;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.distlock.sample.BeyondTheJdk;
import io.github.distlock.test.LocalRedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code mysql} profile against the local MariaDB (or MySQL) on localhost:3306,
 * database {@code test}, as in the article: 200 concurrent locked buyers, 100 apples.
 * Tables are created by the profile's schema script and emptied by the reset, so reruns
 * start clean.
 *
 * <p>
 * Skipped, naming what to install, when no database answers there, except in CI
 * ({@code CI=true}), where {@code .ci/run} starts one and a missing database fails the
 * build (see {@link DatabaseAnswers}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = "sample.race-window=2ms")
@ActiveProfiles("mysql")
@ExtendWith(MariaDbLockedRaceTests.DatabaseAnswers.class)
@LocalRedisServer
class MariaDbLockedRaceTests {

	private static final String URL = "jdbc:mariadb://localhost:3306/test";

	private static final String INSTALL = "install and start MariaDB (Debian package mariadb-server) with root allowed"
			+ " in over TCP without a password and a database named test";

	private static final int BUYERS = 200;

	private static final int STOCK = 100;

	private static final Duration BOUND = Duration.ofMinutes(2);

	@Autowired
	private BuyService buyService;

	@Autowired
	private Inventory inventory;

	@AfterAll
	static void dropTables() throws SQLException {
		try (Connection connection = DriverManager.getConnection(URL, "root", "")) {
			connection.createStatement().execute("DROP TABLE IF EXISTS purchase_history, product");
		}
		catch (SQLException ex) {
			// Skipped above: nothing was created.
		}
	}

	@Test
	void lockedRaceSellsExactlyTheStock() throws Exception {
		this.inventory.reset(ProductController.PRODUCT_APPLE, STOCK);
		ExecutorService pool = Executors.newFixedThreadPool(BUYERS);
		try {
			CountDownLatch ready = new CountDownLatch(BUYERS);
			CountDownLatch go = new CountDownLatch(1);
			List<Future<PurchaseOutcome>> outcomes = new ArrayList<>();
			for (int i = 0; i < BUYERS; i++) {
				String buyer = "buyer-" + i;
				outcomes.add(pool.submit(() -> {
					ready.countDown();
					go.await();
					return this.buyService.buyProductWithLock(ProductController.PRODUCT_APPLE, buyer);
				}));
			}
			assertThat(ready.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
			go.countDown();
			int bought = 0;
			for (Future<PurchaseOutcome> outcome : outcomes) {
				if (outcome.get(BOUND.toSeconds(), TimeUnit.SECONDS) == PurchaseOutcome.BOUGHT) {
					bought++;
				}
			}
			assertThat(bought).isEqualTo(STOCK);
			assertThat(this.inventory.level(ProductController.PRODUCT_APPLE))
				.isEqualTo(new Inventory.StockLevel(0, STOCK));
		}
		finally {
			pool.shutdownNow();
		}
	}

	/**
	 * Runs the class only when the database answers, before its Spring context (which
	 * needs it) is started: skipped naming what to install otherwise, failed in CI.
	 */
	static final class DatabaseAnswers implements ExecutionCondition {

		@Override
		public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
			try (Connection connection = DriverManager.getConnection(URL, "root", "")) {
				if (connection.isValid(5)) {
					return ConditionEvaluationResult.enabled("MariaDB answers at " + URL);
				}
				return BeyondTheJdk.disabled("the connection to " + URL + " is not valid", INSTALL, null);
			}
			catch (SQLException ex) {
				return BeyondTheJdk.disabled(
						"no MariaDB/MySQL answers at " + URL + " (root, no password): " + ex.getMessage(), INSTALL, ex);
			}
		}

	}

}

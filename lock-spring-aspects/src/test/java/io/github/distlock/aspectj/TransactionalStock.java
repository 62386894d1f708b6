package io.github.distlock.aspectj;

import java.util.List;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockService;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Woven at compile time by both the lock's aspect and Spring's
 * {@code AnnotationTransactionAspect}: the locked, transactional method is reached
 * through {@code this}. Records whether the lock was held, as another instance sees it,
 * when the transaction completed.
 */
public class TransactionalStock {

	private final JdbcTemplate jdbc;

	private final LockService observer;

	private final List<String> events;

	public TransactionalStock(JdbcTemplate jdbc, LockService observer, List<String> events) {
		this.jdbc = jdbc;
		this.observer = observer;
		this.events = events;
	}

	public void buy(String name) {
		decrement(name);
	}

	public void buyAndFail(String name) {
		decrementAndFail(name);
	}

	@DistributedLock(name = "stock", key = "#name")
	@Transactional
	void decrement(String name) {
		this.jdbc.update("update product set amount = amount - 1 where name = ?", name);
		recordCompletion();
	}

	@DistributedLock(name = "stock", key = "#name")
	@Transactional
	void decrementAndFail(String name) {
		this.jdbc.update("update product set amount = amount - 1 where name = ?", name);
		recordCompletion();
		throw new IllegalStateException("roll back");
	}

	private void recordCompletion() {
		LockService seenBy = this.observer;
		List<String> seen = this.events;
		TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
			@Override
			public void afterCompletion(int status) {
				seen.add(((status == STATUS_COMMITTED) ? "commit" : "rollback") + ", locked="
						+ seenBy.isLocked("stock:apple"));
			}
		});
	}

}

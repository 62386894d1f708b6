package io.github.distlock.test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.HandOverReply;
import io.github.distlock.store.InMemoryLockStore;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.NotOwned;
import io.github.distlock.store.ReleaseListener;
import io.github.distlock.store.ReleaseNotifications;
import io.github.distlock.store.ReleaseReply;
import io.github.distlock.store.Released;

/**
 * The application's view of the in-memory store: every operation goes to the
 * {@link InMemoryLockStore}, and what it did to a lock is recorded, in the order the
 * store did it. Remembers the owner token of every hold of the application, so that the
 * kit can end one as an expiry would.
 * <p>
 * Each operation and its record happen under one monitor, so the records are in the
 * store's order. The kit's own operations ({@link TestLocks#holdElsewhere(String)},
 * {@link TestLocks#loseLock(String)}) go to the in-memory store directly and are not
 * recorded: they are another instance's, or the store's.
 */
final class RecordingLockStore implements LockStore {

	private final InMemoryLockStore store;

	private final List<LockRecord> records = new ArrayList<>();

	/** The application's holds in the store, by owner token. */
	private final Map<String, Hold> holds = new ConcurrentHashMap<>();

	RecordingLockStore(InMemoryLockStore store) {
		this.store = store;
	}

	InMemoryLockStore inMemoryStore() {
		return this.store;
	}

	@Override
	public String key(String lockId) {
		return this.store.key(lockId);
	}

	@Override
	public AcquireReply acquire(String key, String owner, long leaseMillis) {
		synchronized (this.records) {
			AcquireReply reply = this.store.acquire(key, owner, leaseMillis);
			if (reply instanceof Acquired acquired) {
				acquired(key, owner, acquired);
			}
			return reply;
		}
	}

	@Override
	public AcquireReply acquireFair(String key, String owner, long leaseMillis, long waitMillis) {
		synchronized (this.records) {
			AcquireReply reply = this.store.acquireFair(key, owner, leaseMillis, waitMillis);
			if (reply instanceof Acquired acquired) {
				acquired(key, owner, acquired);
			}
			return reply;
		}
	}

	@Override
	public boolean supportsFairLocks() {
		return this.store.supportsFairLocks();
	}

	@Override
	public boolean supportsSharedLocks() {
		return this.store.supportsSharedLocks();
	}

	@Override
	public AcquireReply acquireShared(String key, String owner, int permits, long leaseMillis) {
		synchronized (this.records) {
			AcquireReply reply = this.store.acquireShared(key, owner, permits, leaseMillis);
			if (reply instanceof Acquired acquired) {
				acquired(key, owner, acquired);
			}
			return reply;
		}
	}

	@Override
	public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal) {
		synchronized (this.records) {
			HandOverReply reply = this.store.handOver(key, owner, newOwner, leaseMillis, mayStayLocal);
			if (reply instanceof Acquired acquired) {
				ended(owner, LockRecord.Kind.RELEASED);
				acquired(key, newOwner, acquired);
			}
			else if (reply instanceof Released) {
				ended(owner, LockRecord.Kind.RELEASED);
			}
			else if (reply instanceof NotOwned) {
				ended(owner, LockRecord.Kind.LOST);
			}
			return reply;
		}
	}

	@Override
	public ReleaseReply release(String key, String owner) {
		synchronized (this.records) {
			ReleaseReply reply = this.store.release(key, owner);
			ended(owner, (reply instanceof Released) ? LockRecord.Kind.RELEASED : LockRecord.Kind.LOST);
			return reply;
		}
	}

	@Override
	public ReleaseReply withdraw(String key, String owner) {
		synchronized (this.records) {
			ReleaseReply reply = this.store.withdraw(key, owner);
			ended(owner, (reply instanceof Released) ? LockRecord.Kind.RELEASED : LockRecord.Kind.LOST);
			return reply;
		}
	}

	@Override
	public ExtendReply extend(String key, String owner, long leaseMillis) {
		synchronized (this.records) {
			ExtendReply reply = this.store.extend(key, owner, leaseMillis);
			if (reply instanceof NotOwned) {
				ended(owner, LockRecord.Kind.LOST);
			}
			return reply;
		}
	}

	@Override
	public long remainingLeaseMillis(String key) {
		return this.store.remainingLeaseMillis(key);
	}

	@Override
	public void verify() {
		this.store.verify();
	}

	@Override
	public ReleaseNotifications subscribe(ReleaseListener listener) {
		return this.store.subscribe(listener);
	}

	/** What happened so far, oldest first. */
	List<LockRecord> records() {
		synchronized (this.records) {
			return List.copyOf(this.records);
		}
	}

	void clearRecords() {
		synchronized (this.records) {
			this.records.clear();
		}
	}

	/**
	 * Ends the application's hold of {@code key} in the store, as if its lease had run
	 * out and another instance had held it since: the holder finds out at its next
	 * renewal, {@code extend} or release (which then answer {@link NotOwned}).
	 * @return whether the application held {@code key}
	 */
	boolean endHold(String key) {
		synchronized (this.records) {
			boolean ended = false;
			for (Map.Entry<String, Hold> hold : this.holds.entrySet()) {
				if (hold.getValue().key().equals(key)) {
					// Not released with the holder's token, which the store would
					// remember
					// and take the holder's own release for a replay of it: passed to
					// another owner, which releases it. Not recorded: the holder did
					// neither.
					String other = "distlock-test-expiry:" + UUID.randomUUID();
					if (this.store.handOver(key, hold.getKey(), other, 1, true) instanceof Acquired) {
						this.store.release(key, other);
					}
					ended = true;
				}
			}
			return ended;
		}
	}

	/** The lock ids the application holds in the store now. */
	List<String> heldLockIds() {
		return this.holds.values().stream().map(Hold::key).distinct().sorted().toList();
	}

	private void acquired(String key, String owner, Acquired acquired) {
		this.holds.put(owner, new Hold(key, acquired.fencingToken()));
		this.records.add(new LockRecord(LockRecord.Kind.ACQUIRED, key, acquired.fencingToken()));
	}

	private void ended(String owner, LockRecord.Kind kind) {
		Hold hold = this.holds.remove(owner);
		if (hold != null) {
			this.records.add(new LockRecord(kind, hold.key(), hold.fencingToken()));
		}
	}

	/**
	 * One hold of the application: the in-memory store's key is the lock id itself.
	 */
	private record Hold(String key, long fencingToken) {
	}

}

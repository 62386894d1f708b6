package io.github.distlock.redis;

import java.util.concurrent.atomic.AtomicLong;

import io.github.distlock.store.Acquired;
import io.github.distlock.store.ForwardingLockStore;
import io.github.distlock.store.HandOverReply;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.NotOwned;
import io.github.distlock.store.ReleaseReply;
import io.github.distlock.store.Released;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A {@link LockStore} that passes everything to another and audits every release and
 * hand-over against Redis: it reads the lock's owner token just before the command, and
 * counts a command that released or handed over a lock whose key named another owner then
 * (a release touching another owner's key; an owner token, once replaced, never comes
 * back, so no interleaving makes this legitimate), and the releases refused because
 * another owner held the lock (a holder that had lost its lock, kept off the new owner's
 * key).
 */
final class ReleaseAuditingStore extends ForwardingLockStore {

	private final StringRedisTemplate redis;

	private final AtomicLong audited = new AtomicLong();

	private final AtomicLong unaudited = new AtomicLong();

	private final AtomicLong refusedOnAnotherOwnersKey = new AtomicLong();

	private final AtomicLong touchedAnotherOwnersKey = new AtomicLong();

	/**
	 * @param delegate the store to audit
	 * @param redis a template on the Redis the store writes to, to read owner tokens
	 */
	ReleaseAuditingStore(LockStore delegate, StringRedisTemplate redis) {
		super(delegate);
		this.redis = redis;
	}

	/** Releases and hand-overs whose lock's owner could be read just before. */
	long audited() {
		return this.audited.get();
	}

	/** Releases and hand-overs whose lock's owner could not be read (Redis failing). */
	long unaudited() {
		return this.unaudited.get();
	}

	/** Releases answered "not owned" while another owner's key was there. */
	long refusedOnAnotherOwnersKey() {
		return this.refusedOnAnotherOwnersKey.get();
	}

	/** Releases and hand-overs that took effect on another owner's key: must be 0. */
	long touchedAnotherOwnersKey() {
		return this.touchedAnotherOwnersKey.get();
	}

	@Override
	public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal) {
		Read before = read(key);
		HandOverReply reply = super.handOver(key, owner, newOwner, leaseMillis, mayStayLocal);
		audit(before, owner, reply instanceof Acquired || reply instanceof Released, reply instanceof NotOwned);
		return reply;
	}

	@Override
	public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal,
			@Nullable String newOwnerQueuedAs) {
		Read before = read(key);
		HandOverReply reply = super.handOver(key, owner, newOwner, leaseMillis, mayStayLocal, newOwnerQueuedAs);
		audit(before, owner, reply instanceof Acquired || reply instanceof Released, reply instanceof NotOwned);
		return reply;
	}

	@Override
	public ReleaseReply release(String key, String owner) {
		Read before = read(key);
		ReleaseReply reply = super.release(key, owner);
		audit(before, owner, reply instanceof Released, reply instanceof NotOwned);
		return reply;
	}

	@Override
	public ReleaseReply withdraw(String key, String owner) {
		Read before = read(key);
		ReleaseReply reply = super.withdraw(key, owner);
		audit(before, owner, reply instanceof Released, reply instanceof NotOwned);
		return reply;
	}

	private void audit(Read before, String owner, boolean tookEffect, boolean refused) {
		if (!before.answered) {
			this.unaudited.incrementAndGet();
			return;
		}
		this.audited.incrementAndGet();
		boolean anotherOwner = before.owner != null && !before.owner.equals(owner);
		if (anotherOwner && tookEffect) {
			this.touchedAnotherOwnersKey.incrementAndGet();
		}
		if (anotherOwner && refused) {
			this.refusedOnAnotherOwnersKey.incrementAndGet();
		}
	}

	private Read read(String key) {
		try {
			String value = this.redis.opsForValue().get(key);
			// A contended lock's value ends with "+".
			return new Read(true,
					(value != null && value.endsWith("+")) ? value.substring(0, value.length() - 1) : value);
		}
		catch (RuntimeException ex) {
			return new Read(false, null);
		}
	}

	private record Read(boolean answered, @Nullable String owner) {
	}

}

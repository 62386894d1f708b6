package io.github.distlock.redis;

import java.util.function.IntSupplier;

import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.HandOverReply;
import io.github.distlock.store.HeldByOther;
import io.github.distlock.store.NotOwned;
import io.github.distlock.store.Released;
import io.github.distlock.store.SharedLockConflictException;
import io.github.distlock.store.Unknown;

import org.springframework.dao.TransientDataAccessResourceException;

/**
 * What the Redis store answers for a lock script's integer reply, or for its failure: the
 * store SPI's reply records, decoded in one place for {@link RedisLockStore} and
 * {@link ReplicaAcknowledgedReplies}.
 */
final class ScriptReplies {

	private ScriptReplies() {
	}

	/**
	 * The reply to a failed command: {@link Unknown} when its outcome is unknown,
	 * otherwise {@code failure} is thrown.
	 */
	static Unknown unknownOrThrow(RuntimeException failure) {
		if (RedisFailures.outcomeUnknown(failure)) {
			return new Unknown(failure);
		}
		throw failure;
	}

	/**
	 * The reply to an acquire script: {@code reply} is the fencing token (&gt; 0), 0 when
	 * acquired with the token issued on read, {@code -1 - remaining lease ms} of the
	 * holder, or {@link LockScripts#EXPIRED_IN_TRANSIT}: the acquire reached Redis too
	 * late and changed nothing, an {@link Unknown} outcome for this attempt (neither
	 * acquired nor refused by another owner), which the engine handles as a timeout.
	 */
	static AcquireReply acquireReply(long reply) {
		if (reply == LockScripts.EXPIRED_IN_TRANSIT) {
			return new Unknown(new TransientDataAccessResourceException("The acquire reached Redis after its deadline "
					+ "(expired in transit, held back on the way) and changed nothing"));
		}
		if (reply == 0) {
			return Acquired.TOKEN_ISSUED_ON_READ;
		}
		return (reply > 0) ? new Acquired(reply) : new HeldByOther(Math.max(0, -1 - reply));
	}

	/**
	 * The reply to a hand-over script: {@code reply} is the new owner's fencing token
	 * (&gt; 0), -1 if released instead, 0 if not owned.
	 */
	static HandOverReply handOverReply(long reply) {
		if (reply > 0) {
			return new Acquired(reply);
		}
		return (reply == -1) ? Released.INSTANCE : NotOwned.INSTANCE;
	}

	/**
	 * The reply to the shared acquire script: as {@link #acquireReply}, or 0 when the key
	 * is held shared with another number of permits, which {@code heldPermits} then reads
	 * (-1 when its holders left meanwhile: refused, the next attempt tells).
	 * @throws SharedLockConflictException for a key held with another number of permits
	 */
	static AcquireReply sharedAcquireReply(long reply, String key, int permits, IntSupplier heldPermits) {
		if (reply != 0) {
			return acquireReply(reply);
		}
		int held = heldPermits.getAsInt();
		if (held < 0) {
			return new HeldByOther(0);
		}
		throw new SharedLockConflictException(key, held, permits);
	}

}

package io.github.distlock.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.LeaseReset;
import io.github.distlock.store.Unknown;

/**
 * One batch of renewals of reactive holds ({@link AsyncHold}) found due by the
 * {@link RenewalSweep}: one {@link io.github.distlock.store.AsyncLockStore#extendAll}
 * call, sent without blocking, with the guarantees of a renewal of one hold:
 * <ul>
 * <li>a hold's lease commands still run one after the other: a hold with one in flight
 * (an {@code extend}, the expiry of a release) is renewed on its own after it, and the
 * batch is the hold's lease command until it answered;</li>
 * <li>each reply is the hold's own: a hold the store no longer has for this owner is lost
 * alone, an unknown reply is retried for that hold alone until its lease runs out; a call
 * that failed as a whole is an unknown reply for each.</li>
 * </ul>
 */
final class AsyncRenewalBatch {

	private AsyncRenewalBatch() {
	}

	/** Renews the holds of {@code due} still to be renewed, in one call. */
	static void send(AsyncEngine engine, List<RenewalSweep.Due<AsyncHold>> due) {
		List<RenewalSweep.Due<AsyncHold>> joined = new ArrayList<>(due.size());
		List<CompletableFuture<ExtendReply>> commands = new ArrayList<>(due.size());
		List<LeaseReset> resets = new ArrayList<>(due.size());
		for (RenewalSweep.Due<AsyncHold> renewal : due) {
			CompletableFuture<ExtendReply> command = new CompletableFuture<>();
			LeaseReset reset = renewal.held().joinBatch(renewal.generation(), command);
			if (reset != null) {
				joined.add(renewal);
				commands.add(command);
				resets.add(reset);
			}
		}
		if (joined.isEmpty()) {
			return;
		}
		long sentAt = engine.runtime.nanoTime();
		CompletionStage<List<ExtendReply>> sent;
		try {
			sent = engine.store.extendAll(resets);
		}
		catch (RuntimeException ex) {
			sent = CompletableFuture.failedFuture(ex);
		}
		sent.whenComplete((replies, failure) -> {
			for (int i = 0; i < joined.size(); i++) {
				ExtendReply reply = (failure == null) ? replies.get(i) : Unknown.of(failure);
				RenewalSweep.Due<AsyncHold> renewal = joined.get(i);
				renewal.held()
					.answeredInBatch(reply, sentAt, resets.get(i).leaseMillis(), renewal.generation(), commands.get(i));
			}
		});
	}

}

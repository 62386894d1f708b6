package io.github.distlock.redis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.Extended;
import io.github.distlock.store.LeaseReset;
import io.github.distlock.store.NotOwned;
import io.github.distlock.store.Unknown;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

/**
 * {@link RedisLockStore#extendAll}: the lease resets of many locks in few round trips.
 * <p>
 * The resets are cut into scripts of at most {@link LockScripts#EXPIRE_BATCH} locks, on a
 * Redis Cluster of one hash slot each (a script's keys must share one; a lock's keys
 * share its own slot, see {@link LockKeys}), and sent one after the other without waiting
 * for the replies in between where the client can ({@link LockScriptRunner#runAsync}),
 * else one by one. Each lock is owner-checked on its own and answered from its bit of the
 * reply; a script that failed answers {@link io.github.distlock.store.Unknown} for each
 * of its locks. With replicated renewals each script is followed by one {@code WAIT} for
 * all its locks ({@link ReplicaAcknowledgedReplies#extendAll}), and scripts go one by one
 * on the store's own connections.
 */
final class RedisLeaseRenewals {

	private final RedisLockCommands commands;

	/** The writes that wait for replicas, when renewals do. */
	private final @Nullable ReplicaAcknowledgedReplies replicated;

	/** Whether scripts are cut per hash slot (a Redis Cluster). */
	private final boolean cluster;

	RedisLeaseRenewals(RedisLockCommands commands, @Nullable ReplicaAcknowledgedReplies replicated, boolean cluster) {
		this.commands = commands;
		this.replicated = replicated;
		this.cluster = cluster;
	}

	List<ExtendReply> extendAll(List<LeaseReset> resets) {
		List<List<Integer>> scripts = scripts(resets);
		ExtendReply[] replies = new ExtendReply[resets.size()];
		List<CompletionStage<Long>> sent = (this.replicated == null) ? sendAll(resets, scripts) : null;
		for (int i = 0; i < scripts.size(); i++) {
			List<Integer> locks = scripts.get(i);
			List<ExtendReply> answered = (sent != null) ? awaited(sent.get(i), locks.size())
					: run(subset(resets, locks));
			for (int j = 0; j < locks.size(); j++) {
				replies[locks.get(j)] = answered.get(j);
			}
		}
		return List.of(replies);
	}

	/**
	 * {@link #extendAll} without blocking, for {@link RedisAsyncLockStore}: every script
	 * sent before any reply (without replicated renewals, on a runner that can send
	 * without blocking).
	 */
	CompletionStage<List<ExtendReply>> sendAll(List<LeaseReset> resets) {
		List<List<Integer>> scripts = scripts(resets);
		List<CompletionStage<Long>> sent = sendAll(resets, scripts);
		if (sent == null) {
			throw new IllegalStateException("The lock scripts' runner cannot send without blocking");
		}
		List<CompletableFuture<List<ExtendReply>>> answered = new ArrayList<>(sent.size());
		for (int i = 0; i < sent.size(); i++) {
			int locks = scripts.get(i).size();
			answered.add(sent.get(i)
				.handle((renewed, failure) -> (failure == null) ? replies(renewed, locks)
						: unknown(Unknown.of(failure).cause(), locks))
				.toCompletableFuture());
		}
		return CompletableFuture.allOf(answered.toArray(CompletableFuture[]::new)).thenApply((all) -> {
			ExtendReply[] replies = new ExtendReply[resets.size()];
			for (int i = 0; i < scripts.size(); i++) {
				List<ExtendReply> script = answered.get(i).join();
				for (int j = 0; j < script.size(); j++) {
					replies[scripts.get(i).get(j)] = script.get(j);
				}
			}
			return List.of(replies);
		});
	}

	/** The indexes of the resets of each script: per slot on a cluster, in chunks. */
	private List<List<Integer>> scripts(List<LeaseReset> resets) {
		Map<Integer, List<Integer>> groups = new LinkedHashMap<>();
		for (int i = 0; i < resets.size(); i++) {
			int group = this.cluster ? ClusterSlotHashUtil.calculateSlot(resets.get(i).key()) : 0;
			groups.computeIfAbsent(group, (slot) -> new ArrayList<>()).add(i);
		}
		List<List<Integer>> scripts = new ArrayList<>();
		for (List<Integer> group : groups.values()) {
			for (int from = 0; from < group.size(); from += LockScripts.EXPIRE_BATCH) {
				scripts.add(group.subList(from, Math.min(from + LockScripts.EXPIRE_BATCH, group.size())));
			}
		}
		return scripts;
	}

	/**
	 * Sends every script before waiting for a reply.
	 * @return their replies, or {@code null} when the runner can only block
	 */
	private @Nullable List<CompletionStage<Long>> sendAll(List<LeaseReset> resets, List<List<Integer>> scripts) {
		List<CompletionStage<Long>> sent = new ArrayList<>(scripts.size());
		for (List<Integer> locks : scripts) {
			CompletionStage<Long> reply = this.commands.scripts()
				.runAsync(this.commands.expireCall(subset(resets, locks)));
			if (reply == null) {
				return null;
			}
			sent.add(reply);
		}
		return sent;
	}

	private List<ExtendReply> run(List<LeaseReset> resets) {
		if (this.replicated != null) {
			return this.replicated.extendAll(resets);
		}
		try {
			return replies(this.commands.expire(resets), resets.size());
		}
		catch (RuntimeException ex) {
			return unknown(ex, resets.size());
		}
	}

	/** The replies of a script sent, once it answered (or timed out, or failed). */
	private static List<ExtendReply> awaited(CompletionStage<Long> sent, int locks) {
		try {
			return replies(sent.toCompletableFuture().join(), locks);
		}
		catch (CompletionException ex) {
			return unknown(Unknown.of(ex).cause(), locks);
		}
	}

	/** The replies of the {@code locks} of one script, from the bits of its reply. */
	static List<ExtendReply> replies(long renewed, int locks) {
		List<ExtendReply> replies = new ArrayList<>(locks);
		for (int i = 0; i < locks; i++) {
			replies.add(((renewed >>> i) & 1) == 1 ? Extended.INSTANCE : NotOwned.INSTANCE);
		}
		return replies;
	}

	/**
	 * A script failed: {@link io.github.distlock.store.Unknown} for each of its locks
	 * when the outcome is not known, else thrown.
	 */
	private static List<ExtendReply> unknown(RuntimeException failure, int locks) {
		return Collections.nCopies(locks, ScriptReplies.unknownOrThrow(failure));
	}

	private static List<LeaseReset> subset(List<LeaseReset> resets, List<Integer> indexes) {
		List<LeaseReset> subset = new ArrayList<>(indexes.size());
		indexes.forEach((i) -> subset.add(resets.get(i)));
		return subset;
	}

}

package io.github.distlock.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.LongFunction;

import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.AsyncLockStore;
import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.Extended;
import io.github.distlock.store.LeaseReset;
import io.github.distlock.store.NotOwned;
import io.github.distlock.store.ReleaseReply;
import io.github.distlock.store.Released;

/**
 * The asynchronous operations of a {@link RedisLockStore} on Lettuce's shared native
 * connection: the same scripts with the same keys and arguments as the store's blocking
 * methods ({@link RedisLockCommands} builds both), sent through Lettuce's asynchronous
 * API ({@link LockScriptRunner#runAsync}), their replies read as the store reads them
 * ({@link ScriptReplies}), except that acquisitions always issue their fencing token
 * (reactive holders read it without a round trip, see {@link AsyncLockStore}). Until the
 * shared connection is open, the first command opens it on a thread of the caller's
 * executor (connecting blocks).
 * <p>
 * Only without replicas waited for: {@code WAIT} runs on dedicated connections that
 * block, so a store that waits for replicas offloads its blocking methods instead
 * ({@link AsyncLockStore#offloading}), as it does with clients other than Lettuce.
 */
final class RedisAsyncLockStore implements AsyncLockStore {

	private final RedisLockCommands commands;

	private final LockScriptRunner scripts;

	private final RedisLeaseRenewals renewals;

	private final Executor blockingCalls;

	private RedisAsyncLockStore(RedisLockCommands commands, RedisLeaseRenewals renewals, Executor blockingCalls) {
		this.commands = commands;
		this.scripts = commands.scripts();
		this.renewals = renewals;
		this.blockingCalls = blockingCalls;
	}

	/**
	 * The store's operations without blocking where its client allows it, else its
	 * blocking methods on {@code blockingCalls}.
	 */
	static AsyncLockStore of(RedisLockStore store, RedisLockCommands commands, RedisLeaseRenewals renewals,
			boolean replicated, Executor blockingCalls) {
		if (replicated || !(commands.scripts() instanceof SharedConnectionScriptRunner)) {
			return AsyncLockStore.offloading(store, blockingCalls);
		}
		return new RedisAsyncLockStore(commands, renewals, blockingCalls);
	}

	@Override
	public CompletionStage<AcquireReply> acquire(String key, String owner, long leaseMillis, long waitMillis) {
		Function<String, RedisLockCommands.ScriptCall> call = (notAfter) -> (waitMillis > 0)
				? this.commands.acquireQueuedCall(key, owner, leaseMillis, waitMillis, true, notAfter)
				: this.commands.acquireCall(key, owner, leaseMillis, true, notAfter);
		LongFunction<AcquireReply> reply = (value) -> ScriptReplies.acquireReply(this.commands.settled(value));
		String notAfter = this.commands.notAfterIfKnown();
		if (notAfter == null) {
			// The first acquire (or the first after one expired in transit) measures the
			// server's clock, which blocks: on the caller's executor, as connecting does.
			return run(CompletableFuture.supplyAsync(() -> {
				this.scripts.connect();
				return this.commands.notAfter();
			}, this.blockingCalls).thenCompose((measured) -> send(call.apply(measured))), reply);
		}
		return run(call.apply(notAfter), reply);
	}

	@Override
	public CompletionStage<ReleaseReply> release(String key, String owner) {
		return run(this.commands.releaseCall(key, owner, false),
				(reply) -> (reply == 1) ? Released.INSTANCE : NotOwned.INSTANCE);
	}

	@Override
	public CompletionStage<ExtendReply> extend(String key, String owner, long leaseMillis) {
		return run(this.commands.expireCall(key, owner, leaseMillis),
				(reply) -> (reply == 1) ? Extended.INSTANCE : NotOwned.INSTANCE);
	}

	/**
	 * {@inheritDoc} As {@link RedisLockStore#extendAll}: a few hundred locks per script
	 * (one hash slot per script on a cluster), all scripts sent at once.
	 */
	@Override
	public CompletionStage<List<ExtendReply>> extendAll(List<LeaseReset> resets) {
		return this.scripts.isConnected() ? this.renewals.sendAll(resets)
				: CompletableFuture.runAsync(this.scripts::connect, this.blockingCalls)
					.thenCompose((connected) -> this.renewals.sendAll(resets));
	}

	/**
	 * Sends {@code call}; a failure that leaves the outcome unknown answers
	 * {@link io.github.distlock.store.Unknown}, any other fails the stage, as the store's
	 * blocking methods throw it.
	 */
	private <R> CompletionStage<R> run(RedisLockCommands.ScriptCall call, LongFunction<? extends R> reply) {
		CompletionStage<Long> sent = this.scripts.isConnected() ? send(call)
				: CompletableFuture.runAsync(this.scripts::connect, this.blockingCalls)
					.thenCompose((connected) -> send(call));
		return run(sent, reply);
	}

	/**
	 * The reply of {@code sent}, as
	 * {@link #run(RedisLockCommands.ScriptCall, LongFunction)}.
	 */
	private <R> CompletionStage<R> run(CompletionStage<Long> sent, LongFunction<? extends R> reply) {
		return sent.handle((value, failure) -> {
			if (failure == null) {
				return reply.apply(value);
			}
			Throwable cause = (failure instanceof CompletionException && failure.getCause() != null)
					? failure.getCause() : failure;
			if (cause instanceof RuntimeException runtime) {
				@SuppressWarnings("unchecked")
				R unknown = (R) ScriptReplies.unknownOrThrow(runtime);
				return unknown;
			}
			throw new CompletionException(cause);
		});
	}

	private CompletionStage<Long> send(RedisLockCommands.ScriptCall call) {
		CompletionStage<Long> sent = this.scripts.runAsync(call);
		if (sent == null) {
			throw new IllegalStateException("The lock scripts' runner cannot send without blocking");
		}
		return sent;
	}

}

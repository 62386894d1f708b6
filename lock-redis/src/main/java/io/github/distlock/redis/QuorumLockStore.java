package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.redis.NodeCalls.Replies;
import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.Extended;
import io.github.distlock.store.HandOverReply;
import io.github.distlock.store.HeldByOther;
import io.github.distlock.store.LeaseReset;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.NotOwned;
import io.github.distlock.store.ReleaseListener;
import io.github.distlock.store.ReleaseNotifications;
import io.github.distlock.store.ReleaseReply;
import io.github.distlock.store.Released;
import io.github.distlock.store.Unknown;
import io.github.distlock.support.DurationText;
import io.github.distlock.support.LogSafe;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The locks on a quorum of N &ge; 3 independent Redis masters (Redlock): every operation
 * runs the single-Redis scripts ({@link RedisLockStore}, {@link LockScripts}) on all
 * nodes at once and counts the replies; a lock is held when a majority of nodes hold it.
 * <p>
 * <b>Acquire.</b> On all nodes in parallel, waiting for a node at most the node timeout
 * (which should be small against the lease: a reply later than the lease is worthless).
 * Acquired when a majority granted it while the lease still had time to run, and its
 * fencing token was recorded on a majority (see {@link QuorumFence}); refused otherwise,
 * then released on every node (owner-checked, each node's release sent after that node's
 * acquire ended, so it never overtakes it), except when the answer is {@link Unknown}
 * (below). Each node holds the key for the lease plus a clock drift allowance (1 % of the
 * lease + 2 ms), so the holder's own deadline, counted from before it asked, ends before
 * any node whose clock runs up to 1 % fast frees the lock: Redlock's validity
 * {@code lease - elapsed - drift}.
 * <p>
 * <b>Refusals.</b> When a majority of nodes hold the lock for others, the reply is
 * {@link HeldByOther} with the time until a majority of those keys expire. When this
 * acquirer got some nodes but not a majority (a split vote between racing acquirers, or a
 * holder whose majority left nodes free), it withdraws them without announcing a release
 * and answers {@link HeldByOther} with a short re-check delay that grows while it happens
 * again (see {@link QuorumRefusal}). When fewer than a majority answer, the reply is
 * {@link Unknown} with a cause naming every node and why; the engine then tries again
 * with the same owner token after a back-off, until its wait time ends (then it fails
 * with that cause). Nothing is released on the nodes for an {@code Unknown} answer: a
 * retry of the same token may be queued on a slow node ahead of such a release, which
 * would then take the retry's write away from a majority it was counted in. The caller
 * releases a token it gives up (owner-checked), as the engine does.
 * <p>
 * <b>Hand-over, extend, release.</b> Run on all nodes; a majority of nodes answering as
 * asked is success. Fewer: {@link NotOwned} when the nodes that answered otherwise leave
 * no majority possible (the lock is lost, or was never ours), {@link Unknown} while nodes
 * that did not answer could still make one (the engine then retries, and its lease bounds
 * the doubt). Replays keep the single-Redis scripts' meaning on every node.
 * <p>
 * <b>Hand-over.</b> Each node hands the lock over, or releases it when a waiter of
 * another instance flagged it there and the engine does not let it stay local. Handed
 * over when a majority handed it over and no node that answered released it; one release
 * means a waiter elsewhere, so the lock is then freed on every node and the answer is
 * {@link Released}, as a single Redis would answer (nodes that each decided alone would
 * otherwise leave the successor on fewer nodes at every hand-over, until a hand-over
 * finds no majority). Without a majority of hand-overs it is freed on every node too:
 * {@link Released} when a majority handed it over or released it. The wait for the nodes
 * ends only once their replies decide both counts.
 * <p>
 * <b>Fencing tokens.</b> Strictly greater than every token handed out before for the key,
 * also when a minority of nodes is down, slow or restarted empty: before a token is
 * handed out it is recorded on a majority of nodes that kept their data for the fencing
 * retention, each answering the record it had, which must be smaller. Any earlier token
 * was recorded on such a majority too; the two majorities share a node, whose record is
 * at least the earlier token (or expired after a retention, when the clock-based proposal
 * is larger anyway). A node restarted empty is not counted until it kept its data for one
 * retention. See {@link QuorumFence}.
 * <p>
 * <b>Waiting.</b> Releases are announced on every node's channel; a subscription is one
 * per node, active when a majority of them is (a release by a majority holder publishes
 * on every node where a waiter flagged the lock, so at least one subscribed node hears
 * it).
 */
public final class QuorumLockStore implements LockStore, AutoCloseable {

	private final NodeCalls nodes;

	private final QuorumVote vote;

	private final QuorumGrant grant;

	private final QuorumRefusal refusal;

	private final EngineRuntime runtime;

	private final long nodeTimeoutNanos;

	/**
	 * A Redis node of the quorum.
	 *
	 * @param name how the node is named in messages (its URI without credentials)
	 * @param redis the node's template
	 */
	public record Node(String name, StringRedisTemplate redis) {

	}

	/**
	 * A node of the quorum of any kind: its single-node lock store (every member's
	 * {@link LockStore#key} must give the same key for an id) and its part in the fencing
	 * records.
	 *
	 * @param name how the node is named in messages
	 * @param store the lock store on the node
	 * @param fence the node's fencing records
	 */
	public record Member(String name, LockStore store, QuorumFenceRecords fence) {

	}

	/**
	 * A store on the Redis {@code nodes}, on the JVM's runtime.
	 * @param nodes three or more independent Redis masters
	 * @param keyPrefix prefix of every key and channel, on every node
	 * @param fencingRetention how long each node keeps a lock's last fencing token after
	 * its last acquisition, and how long a node restarted empty does not count for
	 * fencing
	 * @param nodeTimeout how long an operation waits for a node at most
	 */
	public QuorumLockStore(List<Node> nodes, String keyPrefix, Duration fencingRetention, Duration nodeTimeout) {
		this(RedisQuorumMembers.of(nodes, keyPrefix, fencingRetention), nodeTimeout, EngineRuntime.system());
	}

	/**
	 * A store on {@code members}.
	 * @param members three or more independent nodes
	 * @param nodeTimeout how long an operation waits for a node at most
	 * @param runtime the clock and threads the store's waits run on (the engine's)
	 */
	public QuorumLockStore(List<Member> members, Duration nodeTimeout, EngineRuntime runtime) {
		if (members == null || members.size() < 3) {
			throw new IllegalArgumentException("A quorum needs at least 3 nodes, but got "
					+ ((members != null) ? members.stream().map(Member::name).toList() : null));
		}
		if (nodeTimeout == null || nodeTimeout.compareTo(Duration.ofMillis(1)) < 0) {
			throw new IllegalArgumentException(
					"nodeTimeout must be at least 1ms, but was " + DurationText.of(nodeTimeout));
		}
		this.nodes = new NodeCalls(members, runtime);
		this.runtime = runtime;
		this.vote = new QuorumVote(this.nodes);
		this.grant = new QuorumGrant(new QuorumFence(this.nodes), runtime);
		this.refusal = new QuorumRefusal(runtime);
		this.nodeTimeoutNanos = nodeTimeout.toNanos();
	}

	@Override
	public String key(String lockId) {
		return this.nodes.nodes().get(0).store().key(lockId);
	}

	@Override
	public AcquireReply acquire(String key, String owner, long leaseMillis) {
		long sentAt = this.runtime.nanoTime();
		int majority = this.nodes.majority();
		int size = this.nodes.size();
		Replies<AcquireReply> replies = this.nodes.call(
				(node) -> node.store().acquire(key, owner, nodeLease(leaseMillis)), acquireWait(leaseMillis),
				(sofar) -> sofar.count(Acquired.class) >= majority || sofar.count(HeldByOther.class) > size - majority);
		if (count(replies.answers(), Acquired.class) >= majority) {
			this.refusal.acquired(key);
			return this.grant.complete(replies, key, owner, sentAt, leaseMillis, acquireWait(leaseMillis),
					new HeldByOther(this.refusal.splitDelayMillis()));
		}
		return this.refusal.refused(replies, key, owner, majority, size);
	}

	@Override
	public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal) {
		long sentAt = this.runtime.nanoTime();
		int majority = this.nodes.majority();
		Predicate<Object> handedOverOrReleased = (reply) -> reply instanceof Acquired || reply instanceof Released;
		// Decided when both questions are: whether a majority handed it over, and
		// whether a majority handed it over or released it.
		Replies<HandOverReply> replies = this.nodes.call(
				(node) -> node.store().handOver(key, owner, newOwner, nodeLease(leaseMillis), mayStayLocal),
				acquireWait(leaseMillis), this.vote.<HandOverReply>decides(Acquired.class::isInstance)
					.and(this.vote.decides(handedOverOrReleased)));
		List<HandOverReply> answers = replies.answers();
		if (count(answers, Acquired.class) >= majority && count(answers, Released.class) == 0) {
			return this.grant.complete(replies, key, newOwner, sentAt, leaseMillis, acquireWait(leaseMillis),
					Released.INSTANCE);
		}
		// Not handed over on a majority, or released for a waiter of another instance on
		// a node: freed on every node, whatever each one did.
		if (count(answers, Released.class) < this.nodes.size()) {
			replies.afterEach((node) -> {
				node.store().release(key, newOwner);
				node.store().release(key, owner);
			});
		}
		return this.vote.outcome(replies, "hand over", key, handedOverOrReleased, Released.INSTANCE);
	}

	@Override
	public ReleaseReply release(String key, String owner) {
		Replies<ReleaseReply> replies = this.nodes.call((node) -> node.store().release(key, owner),
				this.nodeTimeoutNanos, this.vote.decides(Released.class::isInstance));
		return this.vote.outcome(replies, "release", key, Released.class::isInstance, Released.INSTANCE);
	}

	/** {@inheritDoc} On every node, as {@link #release}. */
	@Override
	public ReleaseReply withdraw(String key, String owner) {
		Replies<ReleaseReply> replies = this.nodes.call((node) -> node.store().withdraw(key, owner),
				this.nodeTimeoutNanos, this.vote.decides(Released.class::isInstance));
		return this.vote.outcome(replies, "withdraw", key, Released.class::isInstance, Released.INSTANCE);
	}

	@Override
	public ExtendReply extend(String key, String owner, long leaseMillis) {
		Replies<ExtendReply> replies = this.nodes.call(
				(node) -> node.store().extend(key, owner, nodeLease(leaseMillis)), acquireWait(leaseMillis),
				this.vote.decides(Extended.class::isInstance));
		return this.vote.outcome(replies, "extend", key, Extended.class::isInstance, Extended.INSTANCE);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Batched per node: every node renews the whole batch ({@code extendAll}), and each
	 * lock is counted by its own majority, as by {@link #extend}.
	 */
	@Override
	public List<ExtendReply> extendAll(List<LeaseReset> resets) {
		List<LeaseReset> onNode = resets.stream()
			.map((reset) -> new LeaseReset(reset.key(), reset.owner(), nodeLease(reset.leaseMillis())))
			.toList();
		long shortest = resets.stream().mapToLong(LeaseReset::leaseMillis).min().orElse(1);
		Replies<List<ExtendReply>> replies = this.nodes.call((node) -> node.store().extendAll(onNode),
				acquireWait(shortest), this.vote.decidesEach(resets.size(), Extended.class::isInstance));
		return this.vote.outcomes(replies, resets.size(), "extend", Extended.class::isInstance, Extended.INSTANCE);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The owner and {@code PTTL} of the key on each node, in one script: held while a
	 * majority of nodes have a key of one owner ({@link QuorumHolds}), so the answer is
	 * the time until fewer than a majority of that owner's keys are left, less the drift
	 * allowance.
	 * @throws org.springframework.dao.DataAccessResourceFailureException when fewer than
	 * a majority of nodes answer
	 */
	@Override
	public long remainingLeaseMillis(String key) {
		int majority = this.nodes.majority();
		Replies<QuorumHolds.NodeHold> replies = this.nodes.call((node) -> QuorumHolds.NodeHold.read(node.store(), key),
				this.nodeTimeoutNanos, (sofar) -> false);
		if (replies.answers().size() < majority) {
			throw replies.noMajority("Could not read lock key '" + LogSafe.text(key) + "': answered", majority,
					(reply) -> true);
		}
		long ttl = QuorumHolds.remaining(replies.answers(), majority);
		return (ttl < 0 || ttl == Long.MAX_VALUE) ? ttl : holderLease(ttl);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The single-Redis probe on every node; a majority must run it.
	 */
	@Override
	public void verify() {
		int majority = this.nodes.majority();
		Replies<Boolean> replies = this.nodes.call((node) -> {
			node.store().verify();
			return Boolean.TRUE;
		}, this.nodeTimeoutNanos, (sofar) -> sofar.answers().size() >= this.nodes.size());
		if (replies.answers().size() < majority) {
			throw replies.noMajority("The lock scripts cannot run on a majority of the quorum: ran", majority,
					(reply) -> true);
		}
	}

	@Override
	public ReleaseNotifications subscribe(ReleaseListener listener) {
		if (listener == null) {
			throw new IllegalArgumentException("listener must not be null");
		}
		List<ReleaseNotifications> subscriptions = new ArrayList<>();
		for (Member node : this.nodes.nodes()) {
			subscriptions.add(node.store().subscribe(listener));
		}
		return new QuorumReleaseNotifications(this.nodes, subscriptions);
	}

	/**
	 * Stops the threads that talk to the nodes; the nodes' connections are the caller's.
	 */
	@Override
	public void close() {
		this.nodes.close();
	}

	private long acquireWait(long leaseMillis) {
		return Math.max(1, Math.min(this.nodeTimeoutNanos, TimeUnit.MILLISECONDS.toNanos(leaseMillis)));
	}

	/** The lease on a node: the holder's lease plus the drift allowance. */
	static long nodeLease(long leaseMillis) {
		return leaseMillis + leaseMillis / 100 + 2;
	}

	/**
	 * At most what is left of the holder's lease when a node's key has {@code ttl} ms to
	 * live (undoes {@link #nodeLease}).
	 */
	static long holderLease(long ttl) {
		return (ttl <= 2) ? 0 : ttl - 2 - (ttl - 2) / 101;
	}

	private static int count(List<?> answers, Class<?> type) {
		return QuorumVote.count(answers, type);
	}

}

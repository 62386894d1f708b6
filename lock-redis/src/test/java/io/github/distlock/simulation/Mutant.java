package io.github.distlock.simulation;

import java.util.List;

/**
 * A defect fixed by an earlier issue, put back: edits of the main sources (each
 * {@code find} text must occur exactly {@code times} times, so a mutant whose code moved
 * fails loudly instead of testing nothing). {@link Mutants} compiles the edited classes
 * and runs the simulation over them; {@link MutantsTests} shows that it finds each.
 */
enum Mutant {

	/**
	 * Issue 10, defect 1: a waiter whose own attempt threw went back to WAITING, so a
	 * local holder releasing meanwhile handed the lock over to a thread that was leaving,
	 * and the leaving thread kept nothing of it: the hand-over's lock was renewed for
	 * nobody.
	 */
	GHOST_HAND_OVER("ghost hand-over (issue 10, 1)", """
			not findable by the simulation: its window, between a failed attempt and the waiter \
			leaving the queue, holds no store call or park, where alone the simulation hands the turn \
			on; InterleavingTests finds it with Lincheck's model checker""",
			new Edit("core/LockAcquirer.java", """
					// Straight from ATTEMPTING to CANCELLED: no releaser can
											// pick it for a hand-over while the failure propagates.
											entry.waiters.cancelAttempt(waiter);""",
					"waiter.transition(Waiter.State.ATTEMPTING, Waiter.State.WAITING);"),
			new Edit("core/LockAcquirer.java", """
					if (state == Waiter.State.GRANTED) {
										HeldLock granted = waiter.granted();""", """
					if (state == Waiter.State.GRANTED) {
										if (state == Waiter.State.GRANTED) {
											return;
										}
										HeldLock granted = waiter.granted();""")),

	/**
	 * Issue 10, defect 2: {@code extend} and the watchdog's renewal set the lease without
	 * an order between them: a renewal's reply applied after a shorter extend left the
	 * handle's deadline beyond the store's.
	 */
	EXTEND_RACING_RENEWAL("extend racing renewal (issue 10, 2)",
			new Edit("core/HeldLock.java", "return this.leaseChange.tryLock(Math.max(remainingNanos(), 0));",
					"return true;"),
			new Edit("core/HeldLock.java", "this.leaseChange.lock();", ""),
			new Edit("core/HeldLock.java", "this.leaseChange.unlock();", ""),
			new Edit("core/LockRenewer.java",
					"if (held.state() != HeldLock.State.HELD || held.renewalGeneration() != generation) {",
					"if (held.state() != HeldLock.State.HELD) {", 2),
			// And in the batched renewal of long leases (issue 30).
			new Edit("core/HeldLock.java", "return this.leaseChange.tryLock(0);", "return true;"),
			new Edit("core/RenewalBatch.java",
					"if (held.state() != HeldLock.State.HELD || held.renewalGeneration() != generation) {",
					"if (held.state() != HeldLock.State.HELD) {", 2)),

	/**
	 * Issue 24, defect 1: a quorum acquire that fewer than a majority answered released
	 * the token on every node, and that release could overtake the engine's retry of the
	 * same token on a slow node, taking the retry's write away behind its back.
	 */
	QUORUM_RETRY_CLEAN_UP("quorum retry overtaken by its clean-up (issue 24, 1)",
			new Edit("redis/QuorumRefusal.java", "// No clean-up here: the caller may send this owner token again",
					"replies.afterEach((node) -> node.store().release(key, owner));\n// The caller may send it again")),

	/**
	 * Issue 24, defect 2: a shutdown returned without waiting for the waiters it woke, so
	 * their clean-ups (the withdrawal of a queue entry) came after the connections had
	 * closed, and the next release granted the lock to a waiter that was gone.
	 */
	SHUTDOWN_QUEUE_ENTRY("shutdown leaves a queue entry (issue 24, 2)",
			new Edit("core/EngineShutdown.java", "if (this.acquisitions.get() <= own) {", "if (own >= 0) {")),

	/**
	 * Issue 24, defect 3: a grant set the store's short grant lease (2 s), not the lease
	 * the waiter asked for; the waiter holds a grant for the lease it asked for.
	 */
	GRANT_SHORT_LEASE("grant's short lease (issue 24, 3)",
			new Edit("store/InMemoryGrants.java", "long leaseMillis = this.queues.leaseOf(key, head);",
					"long leaseMillis = InMemoryLockStore.GRANT_LEASE.toMillis();")),

	/**
	 * Issue 24, defect 4: an acquire applied after its owner's acquisition had ended (a
	 * late copy, or a retry cleaned up on another connection) queued the departed owner
	 * again or took the free lock for it.
	 */
	LATE_QUEUED_ATTEMPT("late queued attempt (issue 24, 4)", """
			not found within 6,000 seeds by the simulation as it is (before issue 39's workload it was \
			"found" at seed 4664 with extend racing renewal's fencing violation; that world now passes \
			without a mutant, and this mutant is found nowhere in 6,000 seeds); \
			FairLockStoreContractTests holds every store to it (aLateCopyOfAQueuedAttempt...)""",
			new Edit("store/InMemoryGrants.java", """
					if (hasEnded(state, owner, now)) {
								reply.value = new HeldByOther(remainingMillis(state, now));
								return state;
							}""", "", 2)),

	/**
	 * Found by the simulation (issue 25): fair mode threw the store's failure at once
	 * when an acquire went unanswered, instead of trying the same token again until its
	 * wait time ended.
	 */
	FAIR_UNANSWERED_THROWS("fair acquire unanswered thrown at once (issue 25)", new Edit("core/FairAcquirer.java", """
			if (reply instanceof Unknown unknown
							&& (Thread.currentThread().isInterrupted() || Interrupts.isCause(unknown.cause()))) {""",
			"""
					if (reply instanceof Unknown unknown) {
						this.releaser.releaseLater(entry.key, owner);
						throw unknown.cause();
					}
					if (reply instanceof Unknown unknown
							&& (Thread.currentThread().isInterrupted() || Interrupts.isCause(unknown.cause()))) {""")),

	/**
	 * Found by the simulation (issue 25, seed 1736 of its first model): the window of an
	 * announced grant started at the first refused attempt, also when an earlier attempt
	 * had gone unanswered and been queued.
	 */
	GRANT_WINDOW_SKIPS_UNANSWERED("grant window skips unanswered attempts (issue 25)",
			new Edit("core/AcquireAttempts.java", "queueing.grants.unanswered(sentAt);", ""),
			new Edit("core/FairAcquirer.java", "grants.unanswered(sentAt);", "")),

	/**
	 * Found by the simulation (issue 25, seeds 2315 and 2555 of its first model): the
	 * in-memory store ended leases up to a millisecond early.
	 */
	IN_MEMORY_LEASE_IN_MILLIS("in-memory lease ends in milliseconds (issue 25)",
			new Edit("store/InMemoryLockState.java", "return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;",
					"return now.toEpochMilli() * 1000;")),

	/**
	 * Issue 39, defect 1: a renewal batch freed its locks' lease locks and then scheduled
	 * each lock's next renewal under the generation it read before; an {@code extend}
	 * that ran in between scheduled under the new generation and was overwritten. The
	 * sweep then dropped the lock's entry as stale, nothing renewed it again, and it
	 * expired with no loss reported. Needs leases above the batching threshold (renewed
	 * more than a second apart) on both sides of the extend.
	 */
	BATCH_OVERWRITES_EXTEND("renewal batch overwrites an extend's schedule (issue 39, 1)",
			new Edit("core/RenewalSweep.java", """
					if (generation - this.generation < 0) {
						return false;
					}""", "")),

	/**
	 * Issue 39, defect 3: a reactive {@code extend} whose reply did not come kept the old
	 * deadline but scheduled the next renewal a third of the new lease later, after that
	 * deadline: the hold was reported lost while the store still held it.
	 */
	REACTIVE_EXTEND_UNANSWERED("reactive extend unanswered renews too late (issue 39, 3)",
			"""
					not findable by the simulation: it drives the blocking engine only (the reactive one delivers on Reactor's own threads, outside the simulated scheduler); ReactiveExtendScenario finds it (MutantsTests#theScenarioFindsTheReactiveExtendPutBack)""",
			new Edit("core/AsyncHold.java", "renewed(answer, generation);", "scheduleRenewal(interval(), false);")),

	/**
	 * Issue 39, defect 4: after unanswered attempts, the answered attempt's lease was
	 * counted from the first unanswered send, so an acquisition answered later than a
	 * lease after that send was judged expired and undone; a queued acquisition then kept
	 * sending its released token, refused as a late copy until the receipt expired.
	 */
	UNANSWERED_LEASE_START("lease counted from the first unanswered acquire (issue 39, 4)",
			new Edit("core/UnansweredAcquire.java", "private int failures;", """
					private int failures;

					private long firstSentAt;

					void sent(String owner, long sentAt) {
						if (!owner.equals(this.owner)) {
							this.firstSentAt = sentAt;
						}
					}

					long leaseStart(String owner, long sentAt) {
						return owner.equals(this.owner) ? this.firstSentAt : sentAt;
					}"""),
			new Edit("core/AcquireAttempts.java", "unanswered.unanswered(owner, failure);",
					"unanswered.sent(owner, sentAt);\nunanswered.unanswered(owner, failure);"),
			new Edit("core/AcquireAttempts.java", "long leaseStart = sentAt;",
					"long leaseStart = unanswered.leaseStart(owner, sentAt);"),
			new Edit("core/AcquireAttempts.java", "queueing.spend();", "")),

	/**
	 * Issue 39, 2: an acquire copy applied after its receipt expired (delayed on a
	 * connection of its own) takes the free lock; the acquire scripts' {@code notAfter}
	 * check put back out. Not in the simulation's reach (its nodes run no Lua and have
	 * one connection per client): {@code LateCopyScenario} on real Redis finds it.
	 */
	LATE_ACQUIRE_COPY("a late acquire copy over a second connection (issue 39, 2)", """
			the simulation's nodes run no Lua and have one connection per client: \
			LateCopyScenario on a real master, replica and proxy finds it (MutantsTests)""",
			new Edit("redis/LockScripts.java", "> tonumber(ARGV[%d]) then", "> tonumber(ARGV[%d]) + 3600000 then")),

	/**
	 * Issue 39's move of the spent-token check into {@code QueuedGrants.heldByGrant}: a
	 * grant announced to a token the acquisition released (spent) taken as held.
	 */
	SPENT_TOKEN_GRANT_TAKEN("a late grant to a spent token taken (issue 39, 4)", """
			an equivalent mutant: a token is spent only after a claim answered more than a lease \
			after it was sent, when the grant window's deadline is already past, so heldByGrant \
			refuses the grant anyway; LateGrantToSpentTokenTests builds that order and fails only \
			with both checks removed""", new Edit("core/QueuedGrants.java",
			"if (fencingToken == 0 || queueing.isSpent()) {", "if (fencingToken == 0) {"));

	private final String title;

	private final String notFindable;

	private final List<Edit> edits;

	Mutant(String title, Edit... edits) {
		this(title, null, edits);
	}

	Mutant(String title, String notFindable, Edit... edits) {
		this.title = title;
		this.notFindable = notFindable;
		this.edits = List.of(edits);
	}

	String title() {
		return this.title;
	}

	/** Why the simulation cannot find this one, or {@code null} if it can. */
	String notFindable() {
		return this.notFindable;
	}

	List<Edit> edits() {
		return this.edits;
	}

	/**
	 * One edit of a main source file.
	 *
	 * @param file the file, relative to {@code io/github/distlock}
	 * @param find the text to replace (whitespace at line starts is ignored)
	 * @param replace its replacement
	 * @param times how often {@code find} occurs; all are replaced
	 */
	record Edit(String file, String find, String replace, int times) {

		Edit(String file, String find, String replace) {
			this(file, find, replace, 1);
		}

	}

}

package io.github.distlock.fault.nemesis;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.distlock.LockHandle;

import io.github.distlock.LockLostException;
import io.github.distlock.MultiLockHandle;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.FencedResource;

import org.springframework.data.redis.connection.RedisNode;

/**
 * The client JVM of the nemesis suite: worker threads that lock random ids of a few (one
 * operation in four takes two ids at once, {@link MultiKeyIncrement}; on a store with
 * shared holds one in five is a READ hold of an id or a permit, {@link SharedOp}) and,
 * under the lock, increment the id's counter in a {@link FencedResource} by
 * read-modify-write with the hold's fencing token (one single-id operation in eight
 * extends its lease in between), until told to stop; and one more thread that holds ids
 * of their own for seconds, on longer leases, extending them ({@link LongHold}). Every
 * operation is printed as an {@link Op} line, every failed acquisition as
 * {@code FAIL <thread> <id> <startNanos> <endNanos> <exception>}, every call of the
 * engine's lock-lost listener as a {@link LossSignal} line.
 * <p>
 * Arguments ({@code --name=value}): {@code name}, {@code store} ({@code quorum},
 * {@code sentinel} or {@code cluster}, see {@link NemesisLockServices}), {@code nodes}
 * ({@code host:port,...}), {@code master} (Sentinel only), {@code fence} (port of the
 * fenced resource's Redis), {@code lease}, {@code timeout}, {@code wait},
 * {@code retention} (ms), {@code threads}, {@code ids}, {@code long-lease} (ms, the long
 * holds' lease), {@code long-ids} (0 for no long holds), {@code renewal-stall} (ms, see
 * {@link RenewalStalls}; 0 for none).
 * <p>
 * Prints {@code READY} once connected; starts on the line {@code go}; on {@code stall}
 * the next holder prints {@code STALLED <thread> <id> <token>} between its read and its
 * write and thinks 300 ms, long enough to be frozen there; {@code renewal-stall <ms>}
 * sets the stall of the renewal threads; on {@code stop} lets every thread finish its
 * operation, prints {@code DONE tracked=<n> held=<n>} (the engine's bookkeeping) and
 * exits. It halts when its standard input ends, so it never outlives the test JVM.
 */
public final class NemesisClient {

	/** Flushed after every line, so a killed client leaves nothing in a buffer. */
	private static final PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false,
			StandardCharsets.UTF_8);

	private static volatile boolean stopping;

	/**
	 * Set by the line {@code stall <ms>}: the next holder prints and thinks that long; 0
	 * when none was asked for.
	 */
	private static final AtomicLong stallMillis = new AtomicLong();

	/** The engine's runtime, whose renewal threads {@code renewal-stall} slows down. */
	private static final RenewalStalls renewalStalls = new RenewalStalls();

	private final Map<String, String> options;

	private final LockEngine service;

	private NemesisClient(Map<String, String> options, LockEngine service) {
		this.options = options;
		this.service = service;
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> options = parse(args);
		renewalStalls.stall(Long.parseLong(options.get("renewal-stall")));
		List<String> commands = new ArrayList<>();
		startStdinReader(commands);
		try (NemesisLockServices services = new NemesisLockServices(millis(options, "timeout"))) {
			List<RedisNode> nodes = Arrays.stream(options.get("nodes").split(",")).map(RedisNode::fromString).toList();
			LockEngine service = services.create(options.get("store"), nodes, options.get("master"),
					millis(options, "lease"), millis(options, "retention"), renewalStalls);
			String name = options.get("name");
			service.setLockLostListener((lost) -> print(
					new LossSignal(name, lost.lockId(), lost.fencingToken(), System.nanoTime()).toLine()));
			NemesisClient client = new NemesisClient(options, service);
			client.warmUp();
			print("READY");
			await(commands, "go");
			client.run();
			print("DONE tracked=" + service.trackedLockCount() + " held=" + service.heldLocks().size());
			service.destroy();
		}
		out.flush();
		System.exit(0);
	}

	/**
	 * One acquisition and release, retried: a cold JVM's first connections and script
	 * loads may take longer than a short lease on a loaded machine.
	 */
	private void warmUp() throws InterruptedException {
		for (int attempt = 1;; attempt++) {
			try {
				this.service.lock("warm-up-" + this.options.get("name"), Duration.ofSeconds(5)).close();
				return;
			}
			catch (RuntimeException ex) {
				if (attempt == 30) {
					throw ex;
				}
				TimeUnit.MILLISECONDS.sleep(200);
			}
		}
	}

	private void run() throws InterruptedException {
		int threads = Integer.parseInt(this.options.get("threads"));
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			String thread = this.options.get("name") + "-t" + t;
			Thread worker = new Thread(() -> work(thread), thread);
			worker.start();
			workers.add(worker);
		}
		if (Integer.parseInt(this.options.get("long-ids")) > 0) {
			String thread = this.options.get("name") + "-t" + threads;
			Thread holder = new Thread(() -> holdLong(thread), thread);
			holder.start();
			workers.add(holder);
		}
		for (Thread worker : workers) {
			worker.join();
		}
	}

	private void work(String thread) {
		int ids = Integer.parseInt(this.options.get("ids"));
		Duration wait = millis(this.options, "wait");
		ThreadLocalRandom random = ThreadLocalRandom.current();
		// The quorum store has no shared holds.
		boolean shared = !"quorum".equals(this.options.get("store"));
		try (FencedResource resource = FencedResource.connect("127.0.0.1",
				Integer.parseInt(this.options.get("fence")))) {
			while (!stopping) {
				if (shared && random.nextInt(5) == 0) {
					workShared(thread, ids, wait, random);
					continue;
				}
				if (ids > 1 && random.nextInt(4) == 0) {
					workOnTwo(thread, ids, wait, random, resource);
					continue;
				}
				String id = "register-" + random.nextInt(ids);
				long startedAt = System.nanoTime();
				LockHandle handle;
				try {
					handle = this.service.lock(id, wait);
				}
				catch (RuntimeException ex) {
					print("FAIL " + thread + " " + id + " " + startedAt + " " + System.nanoTime() + " "
							+ ex.getClass().getSimpleName());
					// Pacing, so that a Redis refusing connections is not asked in a busy
					// loop.
					pause(50);
					continue;
				}
				// The hold began before its token is read (see Op#acquiredNanos).
				long acquiredAt = System.nanoTime();
				try {
					// Read first: issued on its first read, the token is a round trip
					// that can fail (a failover); nothing is written then, and the lock
					// is given back.
					handle.fencingToken();
				}
				catch (RuntimeException ex) {
					release(handle);
					print("FAIL " + thread + " " + id + " " + startedAt + " " + System.nanoTime() + " "
							+ ex.getClass().getSimpleName());
					continue;
				}
				print(increment(thread, id, handle, acquiredAt, resource, random).toLine());
			}
		}
	}

	/**
	 * Long holds ({@link LongHold}) of random ids {@code long-<n>}, one after the other,
	 * until told to stop.
	 */
	private void holdLong(String thread) {
		int ids = Integer.parseInt(this.options.get("long-ids"));
		Duration wait = millis(this.options, "wait");
		Duration lease = millis(this.options, "lease");
		Duration longLease = millis(this.options, "long-lease");
		ThreadLocalRandom random = ThreadLocalRandom.current();
		try (FencedResource resource = FencedResource.connect("127.0.0.1",
				Integer.parseInt(this.options.get("fence")))) {
			while (!stopping) {
				String id = "long-" + random.nextInt(ids);
				long startedAt = System.nanoTime();
				LockHandle handle;
				try {
					handle = this.service.lock(id, wait);
				}
				catch (RuntimeException ex) {
					print("FAIL " + thread + " " + id + " " + startedAt + " " + System.nanoTime() + " "
							+ ex.getClass().getSimpleName());
					pause(50);
					continue;
				}
				long acquiredAt = System.nanoTime();
				try {
					// Read first, as in work.
					handle.fencingToken();
				}
				catch (RuntimeException ex) {
					release(handle);
					print("FAIL " + thread + " " + id + " " + startedAt + " " + System.nanoTime() + " "
							+ ex.getClass().getSimpleName());
					continue;
				}
				print(LongHold.run(thread, handle, acquiredAt, resource, lease, longLease, random).toLine());
			}
		}
	}

	/**
	 * One operation on two ids at once, named in a random order ({@code tryLockAll}): the
	 * engine takes them in its global order, so opposite orders never deadlock.
	 */
	private void workOnTwo(String thread, int ids, Duration wait, ThreadLocalRandom random, FencedResource resource) {
		int first = random.nextInt(ids);
		int second = (first + 1 + random.nextInt(ids - 1)) % ids;
		List<String> named = List.of("register-" + first, "register-" + second);
		long startedAt = System.nanoTime();
		Optional<LockHandle> all;
		try {
			all = this.service.tryLockAll(named, wait, null);
		}
		catch (RuntimeException ex) {
			all = Optional.empty();
		}
		if (all.isEmpty()) {
			print("FAIL " + thread + " " + String.join("+", named) + " " + startedAt + " " + System.nanoTime()
					+ " multi-key");
			pause(50);
			return;
		}
		long acquiredAt = System.nanoTime();
		try {
			// Every token read before any write (see work).
			((MultiLockHandle) all.get()).fencingTokens();
		}
		catch (RuntimeException ex) {
			release(all.get());
			print("FAIL " + thread + " " + String.join("+", named) + " " + startedAt + " " + System.nanoTime()
					+ " multi-key");
			return;
		}
		for (Op op : MultiKeyIncrement.run(thread, (MultiLockHandle) all.get(), acquiredAt, resource,
				millis(this.options, "lease"), random)) {
			print(op.toLine());
		}
	}

	/**
	 * One shared hold: READ of a register's id (whose writers hold it exclusively) or one
	 * of 2 permits of the id {@code permits-0}, held for a moment and released; printed
	 * as a {@link SharedOp} line.
	 */
	private void workShared(String thread, int ids, Duration wait, ThreadLocalRandom random) {
		boolean read = random.nextBoolean();
		String id = read ? "register-" + random.nextInt(ids) : "permits-0";
		int permits = read ? 0 : 2;
		long startedAt = System.nanoTime();
		LockHandle handle;
		try {
			handle = (read ? this.service.read() : this.service.permits(permits)).lock(id, wait);
		}
		catch (RuntimeException ex) {
			print("FAIL " + thread + " " + id + " " + startedAt + " " + System.nanoTime() + " "
					+ ex.getClass().getSimpleName());
			pause(50);
			return;
		}
		long acquiredAt = System.nanoTime();
		pause(random.nextInt(10));
		long releasingAt = System.nanoTime();
		boolean heldAtEnd = handle.isHeld();
		String release = release(handle);
		print(new SharedOp(thread, id, permits, handle.fencingToken(), acquiredAt, releasingAt, heldAtEnd, release,
				millis(this.options, "lease").toMillis())
			.toLine());
	}

	/**
	 * The critical section: read, think (one time in eight extending the lease to 3.3 s
	 * up to the long holds' lease), write back plus one with the token. The think time
	 * widens the window in which a second holder would lose this update.
	 */
	private Op increment(String thread, String id, LockHandle handle, long acquiredAt, FencedResource resource,
			ThreadLocalRandom random) {
		HoldWatch watch = new HoldWatch(millis(this.options, "lease"));
		String read = resource.value(id);
		long next = ((read != null) ? Long.parseLong(read) : 0) + 1;
		if (random.nextInt(8) == 0) {
			watch.extend(handle, Duration.ofMillis(random.nextLong(LongHold.SHORTEST_LEASE.toMillis(),
					millis(this.options, "long-lease").toMillis() + 1)));
		}
		long stall = stallMillis.getAndSet(0);
		if (stall > 0) {
			// The nemesis freezes this JVM, or fails Redis over, when it reads this
			// line: a holder between its read and its write, the write already decided.
			print("STALLED " + thread + " " + id + " " + handle.fencingToken());
			pause(stall);
		}
		else {
			pause(random.nextInt(10));
		}
		long writeSentAt = System.nanoTime();
		boolean accepted = resource.write(id, handle.fencingToken(), Long.toString(next));
		long writeAckAt = System.nanoTime();
		long releasingAt = System.nanoTime();
		boolean heldAtEnd = handle.isHeld();
		String release = release(handle);
		return new Op(thread, id, handle.fencingToken(), acquiredAt, writeSentAt, writeAckAt, releasingAt, accepted,
				heldAtEnd, release, watch.leaseMillis(), watch.sawLossNanos(), watch.extensions());
	}

	/**
	 * Releases {@code handle}.
	 * @return how the release ended: {@code ok}, {@code lost} (the lock was lost before
	 * it) or {@code failed} (Redis did not answer)
	 */
	static String release(LockHandle handle) {
		try {
			handle.close();
			return "ok";
		}
		catch (LockLostException ex) {
			return "lost";
		}
		catch (RuntimeException ex) {
			return "failed";
		}
	}

	static void pause(long millis) {
		try {
			TimeUnit.MILLISECONDS.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void await(List<String> commands, String command) throws InterruptedException {
		synchronized (commands) {
			while (!commands.contains(command)) {
				commands.wait();
			}
		}
	}

	private static void startStdinReader(List<String> commands) {
		Thread reader = new Thread(() -> {
			try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
				String line;
				while ((line = in.readLine()) != null) {
					if (line.equals("stop")) {
						stopping = true;
					}
					if (line.startsWith("stall ")) {
						stallMillis.set(Long.parseLong(line.substring(6)));
					}
					if (line.startsWith("renewal-stall ")) {
						renewalStalls.stall(Long.parseLong(line.substring(14)));
					}
					synchronized (commands) {
						commands.add(line);
						commands.notifyAll();
					}
				}
			}
			catch (IOException ex) {
				// Treated as the end of input.
			}
			// The test JVM is gone (or closed our input): never outlive it.
			Runtime.getRuntime().halt(3);
		}, "stdin");
		reader.setDaemon(true);
		reader.start();
	}

	static synchronized void print(String line) {
		out.println(line);
		out.flush();
	}

	private static Duration millis(Map<String, String> options, String name) {
		return Duration.ofMillis(Long.parseLong(options.get(name)));
	}

	private static Map<String, String> parse(String[] args) {
		Map<String, String> options = new HashMap<>();
		for (String arg : args) {
			int equals = arg.indexOf('=');
			if (!arg.startsWith("--") || equals < 0) {
				throw new IllegalArgumentException("expected --name=value, got '" + arg + "'");
			}
			options.put(arg.substring(2, equals), arg.substring(equals + 1));
		}
		return options;
	}

}

package io.github.distlock.fault;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;

import io.github.distlock.LockLostException;
import io.github.distlock.redis.LockServiceProbe;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.FencedResource;
import io.github.distlock.testsupport.Hold;

/**
 * The lock client that fault tests run in separate JVMs
 * ({@link io.github.distlock.testsupport.ClientJvm}): a plain {@code main} on
 * {@link io.github.distlock.core.LockEngine} over a Redis store with its own Lettuce
 * connection factory, no Spring context, so it starts fast. It prints one line per event
 * on standard output and reads commands from standard input; it halts when its standard
 * input ends, so it never outlives the test JVM.
 * <p>
 * Arguments ({@code --name=value}): {@code redis} and {@code fence} (ports of the lock
 * Redis and of the {@link FencedResource} store), {@code lease} and {@code timeout}
 * (lease and command timeout in ms), {@code name}, {@code mode}, and for {@code soak}:
 * {@code threads}, {@code acquisitions}, {@code hot}, {@code cold}, {@code hotShare}
 * (percent).
 * <p>
 * Modes, each started by a command line:
 * <ul>
 * <li>{@code churn}: on {@code go <id>}, locks, holds 0-30 ms, releases and pauses 0-10
 * ms, forever, printing {@code ACQUIRED <token>}, {@code RELEASING},
 * {@code RELEASED}.</li>
 * <li>{@code holder}: on {@code acquire <id> <resource>}, locks and then writes its token
 * to the fenced resource every 10 ms, whether it still believes it holds the lock or not
 * (a write already on its way), printing {@code WRITE <token> accepted|rejected}; on
 * {@code close}, prints {@code HELD_AT_CLOSE <isHeld>} and
 * {@code CLOSED ok|LockLostException}.</li>
 * <li>{@code soak}: on {@code go}, every thread locks random hot or cold ids and
 * increments each id's counter in the fenced resource by read-modify-write under the
 * lock; prints every hold ({@link Hold#toLine()}), rejected writes, and at the end
 * {@code BOOKKEEPING tracked=<n> held=<n>} and {@code DONE}.</li>
 * </ul>
 * Every mode prints {@code READY} once connected, and {@code LOST_EVENT <id> <token>} for
 * each loss told to its {@code LockLostListener}.
 */
public final class LockClient {

	/**
	 * Our own stream, flushed after every line, so a killed client leaves nothing in a
	 * buffer.
	 */
	private static final PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false,
			StandardCharsets.UTF_8);

	private static final BlockingQueue<String> commands = new LinkedBlockingQueue<>();

	private final Map<String, String> options;

	private final String name;

	private final LockEngine service;

	private final int fencePort;

	private LockClient(Map<String, String> options, LockEngine service) {
		this.options = options;
		this.name = options.getOrDefault("name", "client");
		this.service = service;
		this.fencePort = Integer.parseInt(options.getOrDefault("fence", "0"));
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> options = parse(args);
		startStdinReader();
		try (LockClients clients = new LockClients("127.0.0.1", Integer.parseInt(options.get("redis")),
				Duration.ofMillis(Long.parseLong(options.get("timeout"))))) {
			LockEngine service = clients.newService(Duration.ofMillis(Long.parseLong(options.get("lease"))),
					Duration.ofSeconds(5));
			service.setLockLostListener((lost) -> print("LOST_EVENT " + lost.lockId() + " " + lost.fencingToken()));
			LockClient client = new LockClient(options, service);
			print("READY");
			switch (options.get("mode")) {
				case "churn" -> client.churn();
				case "holder" -> client.holder();
				case "soak" -> client.soak();
				default -> throw new IllegalArgumentException("unknown --mode=" + options.get("mode"));
			}
		}
		out.flush();
		System.exit(0);
	}

	private void churn() throws InterruptedException {
		String id = command("go ").substring(3);
		ThreadLocalRandom random = ThreadLocalRandom.current();
		while (true) {
			LockHandle handle = this.service.lock(id, Duration.ofSeconds(60));
			print("ACQUIRED " + handle.fencingToken());
			TimeUnit.MILLISECONDS.sleep(random.nextInt(31));
			print("RELEASING");
			try {
				handle.close();
				print("RELEASED");
			}
			catch (LockLostException ex) {
				print("RELEASED lost");
			}
			TimeUnit.MILLISECONDS.sleep(random.nextInt(11));
		}
	}

	private void holder() throws InterruptedException {
		try (FencedResource resource = FencedResource.connect("127.0.0.1", this.fencePort)) {
			while (true) {
				String[] acquire = command("acquire ").split(" ");
				LockHandle handle = this.service.lock(acquire[1], Duration.ofSeconds(60));
				long token = handle.fencingToken();
				print("ACQUIRED " + acquire[1] + " " + token);
				String stop;
				do {
					boolean accepted = resource.write(acquire[2], token, "holder-" + token);
					print("WRITE " + token + " " + (accepted ? "accepted" : "rejected"));
					stop = commands.poll(10, TimeUnit.MILLISECONDS);
				}
				while (stop == null);
				if (!stop.equals("close")) {
					throw new IllegalStateException("expected 'close', got '" + stop + "'");
				}
				print("HELD_AT_CLOSE " + handle.isHeld());
				try {
					handle.close();
					print("CLOSED ok");
				}
				catch (LockLostException ex) {
					print("CLOSED LockLostException");
				}
			}
		}
	}

	private void soak() throws InterruptedException {
		command("go");
		int threads = Integer.parseInt(this.options.get("threads"));
		int acquisitions = Integer.parseInt(this.options.get("acquisitions"));
		int hot = Integer.parseInt(this.options.get("hot"));
		int cold = Integer.parseInt(this.options.get("cold"));
		int hotShare = Integer.parseInt(this.options.get("hotShare"));
		List<Thread> workers = new ArrayList<>();
		List<Throwable> failures = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int count = acquisitions / threads + ((t < acquisitions % threads) ? 1 : 0);
			String client = this.name + "-t" + t;
			Thread worker = new Thread(() -> {
				try (FencedResource resource = FencedResource.connect("127.0.0.1", this.fencePort)) {
					ThreadLocalRandom random = ThreadLocalRandom.current();
					for (int i = 0; i < count; i++) {
						String id = (random.nextInt(100) < hotShare) ? "hot-" + random.nextInt(hot)
								: "cold-" + random.nextInt(cold);
						incrementUnderLock(client, id, resource);
					}
				}
				catch (Throwable ex) {
					synchronized (failures) {
						failures.add(ex);
					}
				}
			}, client);
			worker.start();
			workers.add(worker);
		}
		for (Thread worker : workers) {
			worker.join();
		}
		for (Throwable failure : failures) {
			failure.printStackTrace();
			print("FAILURE " + failure);
		}
		print("BOOKKEEPING tracked=" + LockServiceProbe.trackedLockCount(this.service) + " held="
				+ this.service.heldLocks().size());
		print("DONE");
	}

	private void incrementUnderLock(String client, String id, FencedResource resource) {
		// An acquire Redis did not answer in time is tried again by the engine (with
		// the same owner token) until the wait time passes.
		LockHandle handle = this.service.lock(id, Duration.ofSeconds(120));
		long acquiredAt = System.nanoTime();
		String read = resource.value(id);
		long next = ((read != null) ? Long.parseLong(read) : 0) + 1;
		if (!resource.write(id, handle.fencingToken(), Long.toString(next))) {
			print("REJECTED " + id + " " + handle.fencingToken());
		}
		long releasingAt = System.nanoTime();
		handle.close();
		print(new Hold(client, id, handle.fencingToken(), acquiredAt, releasingAt).toLine());
	}

	/** Waits for the next command starting with {@code prefix}. */
	private static String command(String prefix) throws InterruptedException {
		while (true) {
			String line = commands.take();
			if (line.startsWith(prefix)) {
				return line;
			}
			print("IGNORED " + line);
		}
	}

	private static void startStdinReader() {
		Thread reader = new Thread(() -> {
			try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
				String line;
				while ((line = in.readLine()) != null) {
					commands.add(line);
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

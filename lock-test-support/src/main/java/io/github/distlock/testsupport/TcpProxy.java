package io.github.distlock.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in this JVM between a client and a server (usually a {@link RedisServer}),
 * listening on a free loopback port, that can misbehave like a network:
 *
 * <pre>{@code
 * try (TcpProxy proxy = TcpProxy.to(redis.host(), redis.port())) {
 *     // point the client at proxy.port()
 *     proxy.latency(Duration.ofMillis(50)); // every chunk, both directions, arrives 50 ms late
 *     proxy.blackHole();                    // nothing passes in either direction; bytes wait, like TCP retransmits
 *     proxy.holdReplies();                  // requests reach the server, replies wait
 *     proxy.heal();                         // held bytes flow again, in order; new connections accepted
 *     proxy.resetConnections();             // every open connection is closed with a TCP RST
 *     proxy.refuseConnections();            // new connections are reset at once (a partition outlasting TCP timeouts)
 * }
 * }</pre>
 *
 * <p>
 * Held bytes are never dropped: TCP does not lose bytes of a live connection, it delivers
 * them late or the connection dies. Dropping bytes silently would desynchronise a
 * pipelining client (a Redis reply matched to the wrong command), which no real network
 * can do. A partition that outlasts TCP's patience is {@link #blackHole()} followed by
 * {@link #resetConnections()}.
 *
 * <p>
 * One pair of platform threads per connection forwards the bytes; a forwarding thread
 * that must hold a chunk stops reading, so later bytes wait in the kernel's socket
 * buffers, as they would behind a partition.
 */
public final class TcpProxy implements AutoCloseable {

	private static final int CHUNK_SIZE = 16 * 1024;

	private final String targetHost;

	private final int targetPort;

	private final ServerSocket listener;

	private final Thread acceptor;

	private final Set<Link> links = ConcurrentHashMap.newKeySet();

	private final Object gate = new Object();

	private final AtomicInteger connectionsAccepted = new AtomicInteger();

	private boolean requestsHeld;

	private boolean repliesHeld;

	private boolean refusing;

	private long latencyNanos;

	private volatile boolean closed;

	private TcpProxy(String targetHost, int targetPort) {
		this.targetHost = targetHost;
		this.targetPort = targetPort;
		try {
			this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException e) {
			throw new UncheckedIOException(
					"Could not listen on a free loopback port for a proxy to " + targetHost + ":" + targetPort, e);
		}
		this.acceptor = new Thread(this::acceptLoop, "tcp-proxy-" + listener.getLocalPort() + "-accept");
		this.acceptor.setDaemon(true);
		this.acceptor.start();
	}

	/** Starts a proxy forwarding to {@code host:port}. */
	public static TcpProxy to(String host, int port) {
		Objects.requireNonNull(host, "host");
		if (port < 1 || port > 65535) {
			throw new IllegalArgumentException("port must be 1..65535, was " + port);
		}
		return new TcpProxy(host, port);
	}

	/** Starts a proxy forwarding to {@code server}. */
	public static TcpProxy to(RedisServer server) {
		return to(server.host(), server.port());
	}

	/** Always {@code "127.0.0.1"}. */
	public String host() {
		return "127.0.0.1";
	}

	/** The port clients connect to. */
	public int port() {
		return listener.getLocalPort();
	}

	/** Connections accepted since start, including refused ones. */
	public int connectionsAccepted() {
		return connectionsAccepted.get();
	}

	/**
	 * Delays every chunk, in both directions, by {@code latency} (order is kept);
	 * {@link Duration#ZERO} ends it.
	 */
	public void latency(Duration latency) {
		if (latency == null || latency.isNegative()) {
			throw new IllegalArgumentException("latency must not be null or negative, was " + latency);
		}
		synchronized (gate) {
			latencyNanos = latency.toNanos();
			gate.notifyAll();
		}
	}

	/**
	 * Holds every byte in both directions until {@link #heal()}; connections stay open.
	 */
	public void blackHole() {
		synchronized (gate) {
			requestsHeld = true;
			repliesHeld = true;
		}
	}

	/** Lets requests reach the server but holds every reply until {@link #heal()}. */
	public void holdReplies() {
		synchronized (gate) {
			repliesHeld = true;
		}
	}

	/**
	 * Resets every new connection at once until {@link #heal()}; open connections are not
	 * affected.
	 */
	public void refuseConnections() {
		synchronized (gate) {
			refusing = true;
		}
	}

	/**
	 * Ends black-holing, held replies and refusing: held bytes flow on, in order. Latency
	 * stays.
	 */
	public void heal() {
		synchronized (gate) {
			requestsHeld = false;
			repliesHeld = false;
			refusing = false;
			gate.notifyAll();
		}
	}

	/**
	 * Closes every open connection with a TCP RST on both sides, dropping whatever bytes
	 * were held.
	 */
	public void resetConnections() {
		for (Link link : List.copyOf(links)) {
			link.reset();
		}
	}

	/** Number of connections currently open through the proxy. */
	public int openConnections() {
		return links.size();
	}

	/** Resets every connection and stops listening. Calling it again does nothing. */
	@Override
	public void close() {
		closed = true;
		try {
			listener.close();
		}
		catch (IOException e) {
			// Closing anyway.
		}
		resetConnections();
		synchronized (gate) {
			gate.notifyAll();
		}
		try {
			acceptor.join(TimeUnit.SECONDS.toMillis(5));
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public String toString() {
		synchronized (gate) {
			return "TcpProxy[" + host() + ":" + port() + " -> " + targetHost + ":" + targetPort
					+ (requestsHeld ? ", black hole" : repliesHeld ? ", replies held" : "")
					+ (refusing ? ", refusing" : "")
					+ (latencyNanos > 0 ? ", latency " + Duration.ofNanos(latencyNanos) : "") + "]";
		}
	}

	private void acceptLoop() {
		while (!closed) {
			Socket client;
			try {
				client = listener.accept();
			}
			catch (IOException e) {
				return; // closed
			}
			connectionsAccepted.incrementAndGet();
			boolean refuse;
			synchronized (gate) {
				refuse = refusing;
			}
			if (refuse) {
				resetQuietly(client);
				continue;
			}
			Socket server = new Socket();
			try {
				client.setTcpNoDelay(true);
				server.setTcpNoDelay(true);
				server.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
			}
			catch (IOException e) {
				resetQuietly(client);
				resetQuietly(server);
				continue;
			}
			Link link = new Link(client, server);
			links.add(link);
			link.start();
		}
	}

	/**
	 * Blocks until chunks in this direction may pass, then until the chunk's latency has
	 * elapsed.
	 */
	private boolean awaitPassage(boolean request, long readAtNanos, Link link) throws InterruptedException {
		synchronized (gate) {
			while (!closed && !link.isReset() && (request ? requestsHeld : repliesHeld)) {
				gate.wait(100);
			}
			if (closed || link.isReset()) {
				return false;
			}
			while (true) {
				long remaining = readAtNanos + latencyNanos - System.nanoTime();
				if (remaining <= 0 || closed || link.isReset()) {
					return !closed && !link.isReset();
				}
				TimeUnit.NANOSECONDS.timedWait(gate, remaining);
			}
		}
	}

	private static void resetQuietly(Socket socket) {
		try {
			socket.setSoLinger(true, 0); // close() then sends RST instead of FIN
		}
		catch (SocketException e) {
			// Not connected: closing is all there is to do.
		}
		try {
			socket.close();
		}
		catch (IOException e) {
			// Gone anyway.
		}
	}

	/**
	 * One proxied connection: a client socket, a server socket and a forwarding thread
	 * per direction.
	 */
	private final class Link {

		private final Socket client;

		private final Socket server;

		private final AtomicInteger directionsDone = new AtomicInteger();

		private volatile boolean reset;

		Link(Socket client, Socket server) {
			this.client = client;
			this.server = server;
		}

		void start() {
			String name = "tcp-proxy-" + port() + "-" + client.getPort();
			Thread requests = new Thread(() -> pump(client, server, true), name + "-requests");
			Thread replies = new Thread(() -> pump(server, client, false), name + "-replies");
			requests.setDaemon(true);
			replies.setDaemon(true);
			requests.start();
			replies.start();
		}

		boolean isReset() {
			return reset;
		}

		void reset() {
			reset = true;
			links.remove(this);
			resetQuietly(client);
			resetQuietly(server);
			synchronized (gate) {
				gate.notifyAll();
			}
		}

		private void pump(Socket from, Socket to, boolean request) {
			byte[] buffer = new byte[CHUNK_SIZE];
			try {
				InputStream in = from.getInputStream();
				OutputStream out = to.getOutputStream();
				while (true) {
					int read = in.read(buffer);
					if (read < 0) {
						break;
					}
					long readAt = System.nanoTime();
					byte[] chunk = Arrays.copyOf(buffer, read);
					if (!awaitPassage(request, readAt, this)) {
						return;
					}
					out.write(chunk);
					out.flush();
				}
				// An orderly close on one side becomes an orderly close on the other.
				to.shutdownOutput();
				if (directionsDone.incrementAndGet() == 2) {
					links.remove(this);
					client.close();
					server.close();
				}
			}
			catch (IOException e) {
				reset();
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				reset();
			}
		}

	}

}

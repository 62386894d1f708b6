package io.github.distlock.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
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
 *     proxy.holdRequestsOfConnectionSending("EVALSHA"); // that one connection's requests wait, others pass
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

	private final String targetHost;

	private final int targetPort;

	private final ServerSocket listener;

	private final Thread acceptor;

	private final Set<ProxyLink> links = ConcurrentHashMap.newKeySet();

	private final Object gate = new Object();

	private final AtomicInteger connectionsAccepted = new AtomicInteger();

	private boolean requestsHeld;

	private boolean repliesHeld;

	private boolean refusing;

	/** Bytes whose first sender gets its requests held, or {@code null}. */
	private byte[] holdTrigger;

	/** The one connection whose requests are held, or {@code null}. */
	private ProxyLink heldLink;

	private final AtomicInteger heldRequestsDelivered = new AtomicInteger();

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
	 * Holds the requests of one connection until {@link #heal()}, while every other
	 * connection passes: the first one (open now or later) that sends a chunk containing
	 * {@code marker} (UTF-8), from that chunk on, like the segments of one TCP connection
	 * held back by retransmission while another connection gets through. Later senders of
	 * {@code marker} pass. The held bytes reach the server after {@link #heal()} even if
	 * the client closed the connection meanwhile (a late copy of a command already
	 * written).
	 */
	public void holdRequestsOfConnectionSending(String marker) {
		if (marker == null || marker.isEmpty()) {
			throw new IllegalArgumentException("marker must not be null or empty");
		}
		synchronized (gate) {
			holdTrigger = marker.getBytes(java.nio.charset.StandardCharsets.UTF_8);
			heldLink = null;
		}
	}

	/**
	 * Whether the requests of a connection are held now by
	 * {@link #holdRequestsOfConnectionSending}.
	 */
	public boolean holdsRequestsOfAConnection() {
		synchronized (gate) {
			return heldLink != null;
		}
	}

	/**
	 * Chunks of requests that {@link #holdRequestsOfConnectionSending} held and that were
	 * then let through (counted just before they are written to the server).
	 */
	public int heldRequestsDelivered() {
		return heldRequestsDelivered.get();
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
	 * Ends black-holing, held replies, the held connection and refusing: held bytes flow
	 * on, in order. Latency stays.
	 */
	public void heal() {
		synchronized (gate) {
			holdTrigger = null;
			heldLink = null;
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
		for (ProxyLink link : List.copyOf(links)) {
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
		wakeWaiters();
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
				ProxyLink.resetQuietly(client);
				continue;
			}
			Socket server = new Socket();
			try {
				client.setTcpNoDelay(true);
				server.setTcpNoDelay(true);
				server.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
			}
			catch (IOException e) {
				ProxyLink.resetQuietly(client);
				ProxyLink.resetQuietly(server);
				continue;
			}
			ProxyLink link = new ProxyLink(this, client, server);
			links.add(link);
			link.start();
		}
	}

	/**
	 * Blocks until chunks in this direction may pass, then until the chunk's latency has
	 * elapsed.
	 */
	boolean awaitPassage(boolean request, long readAtNanos, ProxyLink link) throws InterruptedException {
		return awaitPassage(request, readAtNanos, link, null);
	}

	/**
	 * {@link #awaitPassage(boolean, long, ProxyLink)} of {@code chunk}, which may trigger
	 * {@link #holdRequestsOfConnectionSending}.
	 */
	boolean awaitPassage(boolean request, long readAtNanos, ProxyLink link, byte[] chunk) throws InterruptedException {
		boolean held = false;
		synchronized (gate) {
			if (request && chunk != null && holdTrigger != null && heldLink == null && contains(chunk, holdTrigger)) {
				heldLink = link;
				holdTrigger = null;
			}
			while (!closed && !link.isReset() && (request ? (requestsHeld || heldLink == link) : repliesHeld)) {
				held |= request && heldLink == link;
				gate.wait(100);
			}
			if (closed || link.isReset()) {
				return false;
			}
			while (true) {
				long remaining = readAtNanos + latencyNanos - System.nanoTime();
				if (remaining <= 0 || closed || link.isReset()) {
					boolean passes = !closed && !link.isReset();
					if (passes && held) {
						link.deliversHeldChunk();
					}
					return passes;
				}
				TimeUnit.NANOSECONDS.timedWait(gate, remaining);
			}
		}
	}

	/** Counts a held chunk let through, just before it is written to the server. */
	void heldChunkDelivered() {
		heldRequestsDelivered.incrementAndGet();
	}

	private static boolean contains(byte[] chunk, byte[] marker) {
		outer: for (int i = 0; i + marker.length <= chunk.length; i++) {
			for (int j = 0; j < marker.length; j++) {
				if (chunk[i + j] != marker[j]) {
					continue outer;
				}
			}
			return true;
		}
		return false;
	}

	/** Forgets a link that was reset or closed on both sides. */
	void forget(ProxyLink link) {
		links.remove(link);
	}

	/** Wakes the forwarding threads waiting for passage, e.g. to see a reset. */
	void wakeWaiters() {
		synchronized (gate) {
			gate.notifyAll();
		}
	}

}

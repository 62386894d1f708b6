package io.github.distlock.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One connection through a {@link TcpProxy}: a client socket, a server socket and a
 * forwarding thread per direction, each passing a chunk only when the proxy lets it.
 */
final class ProxyLink {

	private static final int CHUNK_SIZE = 16 * 1024;

	private final TcpProxy proxy;

	private final Socket client;

	private final Socket server;

	private final AtomicInteger directionsDone = new AtomicInteger();

	private volatile boolean reset;

	/**
	 * Whether the chunk about to be written was held by the proxy's one held connection.
	 */
	private volatile boolean deliveringHeldChunk;

	ProxyLink(TcpProxy proxy, Socket client, Socket server) {
		this.proxy = proxy;
		this.client = client;
		this.server = server;
	}

	void start() {
		String name = "tcp-proxy-" + proxy.port() + "-" + client.getPort();
		Thread requests = new Thread(() -> pump(client, server, true), name + "-requests");
		Thread replies = new Thread(() -> pump(server, client, false), name + "-replies");
		requests.setDaemon(true);
		replies.setDaemon(true);
		requests.start();
		replies.start();
	}

	/**
	 * The chunk about to be written was held
	 * ({@link TcpProxy#holdRequestsOfConnectionSending}).
	 */
	void deliversHeldChunk() {
		deliveringHeldChunk = true;
	}

	boolean isReset() {
		return reset;
	}

	/**
	 * Closes both sockets with a TCP RST, dropping whatever bytes were held.
	 */
	void reset() {
		reset = true;
		proxy.forget(this);
		resetQuietly(client);
		resetQuietly(server);
		proxy.wakeWaiters();
	}

	static void resetQuietly(Socket socket) {
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
				if (!proxy.awaitPassage(request, readAt, this, chunk)) {
					return;
				}
				if (request && deliveringHeldChunk) {
					deliveringHeldChunk = false;
					proxy.heldChunkDelivered();
				}
				out.write(chunk);
				out.flush();
			}
			// An orderly close on one side becomes an orderly close on the other.
			to.shutdownOutput();
			if (directionsDone.incrementAndGet() == 2) {
				proxy.forget(this);
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

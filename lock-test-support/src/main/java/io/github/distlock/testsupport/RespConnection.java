package io.github.distlock.testsupport;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One RESP2 connection, just enough to drive a test server: commands go out as arrays of
 * bulk strings, replies come back as {@link String} (simple and bulk strings),
 * {@link Long} (integers), {@link List} (arrays) or {@code null} (nil bulk string or nil
 * array). Error replies become {@link RedisServerException}.
 *
 * <p>
 * Deliberately independent of any Redis client library, so the servers can be controlled
 * even while the client under test is broken.
 */
final class RespConnection implements AutoCloseable {

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	private RespConnection(Socket socket) throws IOException {
		this.socket = socket;
		this.in = new BufferedInputStream(socket.getInputStream());
		this.out = new BufferedOutputStream(socket.getOutputStream());
	}

	/** Opens a connection whose connect and every read are bounded by {@code timeout}. */
	static RespConnection open(String host, int port, Duration timeout) throws IOException {
		int timeoutMillis = Math.toIntExact(Math.max(1, timeout.toMillis()));
		Socket socket = new Socket();
		try {
			socket.connect(new InetSocketAddress(host, port), timeoutMillis);
			socket.setSoTimeout(timeoutMillis);
			socket.setTcpNoDelay(true);
			return new RespConnection(socket);
		}
		catch (IOException | RuntimeException e) {
			socket.close();
			throw e;
		}
	}

	/** Sends one command and reads its reply. */
	Object call(String... args) throws IOException {
		send(args);
		return readReply();
	}

	/**
	 * Sends one command without reading anything back, for commands after which the
	 * server hangs up.
	 */
	void send(String... args) throws IOException {
		if (args.length == 0) {
			throw new IllegalArgumentException("a Redis command needs at least its name");
		}
		writeAscii("*" + args.length + "\r\n");
		for (String arg : args) {
			byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
			writeAscii("$" + bytes.length + "\r\n");
			out.write(bytes);
			writeAscii("\r\n");
		}
		out.flush();
	}

	/**
	 * Reads one reply; throws {@link EOFException} if the server closed the connection
	 * instead.
	 */
	Object readReply() throws IOException {
		int type = in.read();
		if (type == -1) {
			throw new EOFException("Redis closed the connection");
		}
		String line = readLine();
		switch (type) {
			case '+':
				return line;
			case '-':
				throw new RedisServerException(line);
			case ':':
				return Long.parseLong(line);
			case '$':
				return readBulkString(Integer.parseInt(line));
			case '*':
				return readArray(Integer.parseInt(line));
			default:
				throw new IOException("not a RESP2 reply, type byte '" + (char) type + "' followed by: " + line);
		}
	}

	private String readBulkString(int length) throws IOException {
		if (length < 0) {
			return null;
		}
		byte[] bytes = in.readNBytes(length);
		if (bytes.length < length) {
			throw new EOFException("Redis closed the connection in the middle of a bulk string");
		}
		readLine(); // the CRLF terminating the payload
		return new String(bytes, StandardCharsets.UTF_8);
	}

	private List<Object> readArray(int size) throws IOException {
		if (size < 0) {
			return null;
		}
		List<Object> elements = new ArrayList<>(size);
		for (int i = 0; i < size; i++) {
			elements.add(readReply());
		}
		return elements;
	}

	private String readLine() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int previous = -1;
		while (true) {
			int current = in.read();
			if (current == -1) {
				throw new EOFException("Redis closed the connection in the middle of a reply");
			}
			if (previous == '\r' && current == '\n') {
				byte[] bytes = line.toByteArray();
				return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
			}
			line.write(current);
			previous = current;
		}
	}

	private void writeAscii(String text) throws IOException {
		out.write(text.getBytes(StandardCharsets.US_ASCII));
	}

	@Override
	public void close() throws IOException {
		socket.close();
	}

}

package io.github.distlock.autoconfigure;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

/**
 * One entry of {@code distributed-lock.quorum.nodes}:
 * {@code redis://[user:password@]host:port[/db]}, or {@code rediss://} for SSL. A user
 * info without {@code :} is a password (as in Lettuce's and Boot's Redis URLs); the port
 * defaults to 6379, the database to 0.
 *
 * @param host the host
 * @param port the port
 * @param database the database index
 * @param username the user, or {@code null} for the default user
 * @param password the password, or {@code null}
 * @param ssl whether to connect with SSL ({@code rediss://})
 */
record QuorumNodeUri(String host, int port, int database, @Nullable String username, @Nullable String password,
		boolean ssl) {

	static final String PROPERTY = "distributed-lock.quorum.nodes";

	private static final String FORM = "redis://[user:password@]host:port[/db] (rediss:// for SSL)";

	/**
	 * Parses the entry at {@code index}.
	 * @throws IllegalArgumentException naming the property, the index and the entry (its
	 * password masked) when it is not such a URI
	 */
	static QuorumNodeUri parse(int index, @Nullable String entry) {
		if (entry == null || entry.isBlank()) {
			throw invalid(index, String.valueOf(entry), "it is empty");
		}
		URI uri;
		try {
			uri = new URI(entry.trim());
		}
		catch (URISyntaxException ex) {
			throw invalid(index, entry, ex.getMessage());
		}
		String scheme = uri.getScheme();
		if (!"redis".equals(scheme) && !"rediss".equals(scheme)) {
			throw invalid(index, entry, "the scheme must be redis or rediss");
		}
		if (uri.getHost() == null || uri.getHost().isEmpty()) {
			throw invalid(index, entry, "it names no host");
		}
		if (uri.getQuery() != null || uri.getFragment() != null) {
			throw invalid(index, entry, "it has a query or fragment");
		}
		int database = 0;
		String path = uri.getRawPath();
		if (path != null && !path.isEmpty() && !path.equals("/")) {
			try {
				database = Integer.parseInt(path.substring(1));
			}
			catch (NumberFormatException ex) {
				database = -1;
			}
			if (database < 0) {
				throw invalid(index, entry, "the path must be a database number, like /0");
			}
		}
		String username = null;
		String password = null;
		String userInfo = uri.getRawUserInfo();
		if (userInfo != null) {
			int colon = userInfo.indexOf(':');
			if (colon < 0) {
				password = decode(userInfo);
			}
			else {
				username = (colon > 0) ? decode(userInfo.substring(0, colon)) : null;
				password = decode(userInfo.substring(colon + 1));
			}
		}
		return new QuorumNodeUri(uri.getHost(), (uri.getPort() != -1) ? uri.getPort() : 6379, database, username,
				password, "rediss".equals(scheme));
	}

	/** The URI without credentials, for messages and logs. */
	String name() {
		return (this.ssl ? "rediss://" : "redis://") + this.host + ":" + this.port
				+ ((this.database != 0) ? "/" + this.database : "");
	}

	private static String decode(String text) {
		return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
	}

	private static IllegalArgumentException invalid(int index, String entry, @Nullable String reason) {
		return new IllegalArgumentException(
				PROPERTY + "[" + index + "] '" + masked(entry) + "' is not a Redis URI " + FORM + ": " + reason);
	}

	/** The entry with the password of its user info, if any, replaced by {@code ****}. */
	static String masked(String entry) {
		int scheme = entry.indexOf("://");
		int at = entry.lastIndexOf('@');
		if (scheme < 0 || at < scheme) {
			return entry;
		}
		String userInfo = entry.substring(scheme + 3, at);
		int colon = userInfo.indexOf(':');
		String user = (colon < 0) ? "" : userInfo.substring(0, colon + 1);
		return entry.substring(0, scheme + 3) + user + "****" + entry.substring(at);
	}

}

package io.github.distlock.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Maps raw lock ids to Redis keys.
 * <p>
 * A lock id becomes {@code <prefix>{<encoded id>}}; its fencing key appends
 * {@code :fence}, its release receipt {@code :released}, its fair queue {@code :queue}
 * and {@code :waiting}, and on a Redis Cluster its sharded release channel
 * {@code :notify}. The braces are a Redis Cluster hash tag chosen here, so all keys of
 * one lock share a slot and no input can pick the slot: the encoding escapes {@code % { }
 * #}, control characters and unpaired surrogates as {@code %XX} / {@code %uXXXX}, which
 * keeps distinct ids distinct. Ids whose encoding is longer than
 * {@value #MAX_ENCODED_LENGTH} characters are replaced by {@code #} and the SHA-256 of
 * the id; an escaped id never starts with {@code #}, so the two forms cannot collide.
 */
final class LockKeys {

	static final int MAX_ENCODED_LENGTH = 200;

	private static final HexFormat HEX = HexFormat.of();

	private final String prefix;

	LockKeys(String prefix) {
		if (prefix.isEmpty() || prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
			throw new IllegalArgumentException(
					"distributed-lock.key-prefix must be non-empty and must not contain '{' or '}' (it would"
							+ " break the Redis Cluster hash tag), but was '" + prefix + "'");
		}
		this.prefix = prefix;
	}

	String prefix() {
		return this.prefix;
	}

	String lockKey(String lockId) {
		return this.prefix + "{" + encode(lockId) + "}";
	}

	static String fenceKey(String lockKey) {
		return lockKey + ":fence";
	}

	/**
	 * The key of the release receipt of {@code lockKey} (the owners whose part in the
	 * lock ended, see {@link LockScripts}), in the lock's hash slot.
	 */
	static String receiptKey(String lockKey) {
		return lockKey + ":released";
	}

	/**
	 * The fair queue of {@code lockKey} (a list of owner tokens in arrival order), in the
	 * lock's hash slot.
	 */
	static String queueKey(String lockKey) {
		return lockKey + ":queue";
	}

	/**
	 * The deadlines of the fair queue's entries of {@code lockKey} (a hash owner token
	 * &rarr; server time in ms), in the lock's hash slot.
	 */
	static String waitingKey(String lockKey) {
		return lockKey + ":waiting";
	}

	/**
	 * The shared holds of {@code lockKey} (a sorted set owner token &rarr; end of its
	 * lease, see {@link SharedScripts}), in the lock's hash slot.
	 */
	static String holdersKey(String lockKey) {
		return lockKey + ":holders";
	}

	/**
	 * The sharded pub/sub channel ({@code SPUBLISH}) on which the releases of
	 * {@code lockKey} are announced on a Redis Cluster: it carries the lock key's hash
	 * tag, so it lives in the lock's slot, on the master (and replicas) holding the lock.
	 */
	static String releaseShardChannel(String lockKey) {
		return lockKey + ":notify";
	}

	/**
	 * The one channel on which releases of contended locks are announced; the message is
	 * the key.
	 */
	String releaseChannel() {
		return this.prefix + "released";
	}

	static String encode(String lockId) {
		if (lockId.length() <= MAX_ENCODED_LENGTH && !needsEscaping(lockId)) {
			return lockId;
		}
		StringBuilder encoded = new StringBuilder(Math.min(lockId.length(), MAX_ENCODED_LENGTH) + 16);
		for (int i = 0; i < lockId.length(); i++) {
			char c = lockId.charAt(i);
			if (isPairStart(lockId, i)) {
				encoded.append(c).append(lockId.charAt(++i));
			}
			else if (Character.isSurrogate(c)) {
				encoded.append("%u").append(HEX.toHexDigits(c).toUpperCase());
			}
			else if (isSpecial(c)) {
				encoded.append('%').append(HEX.toHexDigits((byte) c).toUpperCase());
			}
			else {
				encoded.append(c);
			}
			if (encoded.length() > MAX_ENCODED_LENGTH) {
				return hashed(lockId);
			}
		}
		return encoded.toString();
	}

	private static boolean needsEscaping(String lockId) {
		for (int i = 0; i < lockId.length(); i++) {
			char c = lockId.charAt(i);
			if (isSpecial(c) || Character.isSurrogate(c)) {
				return true;
			}
		}
		return false;
	}

	private static boolean isSpecial(char c) {
		return c == '%' || c == '{' || c == '}' || c == '#' || c < 0x20 || c == 0x7f;
	}

	private static boolean isPairStart(String s, int i) {
		return Character.isHighSurrogate(s.charAt(i)) && i + 1 < s.length()
				&& Character.isLowSurrogate(s.charAt(i + 1));
	}

	private static String hashed(String lockId) {
		try {
			MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
			// UTF-16BE keeps every char, unpaired surrogates too, so distinct ids hash
			// distinctly.
			return "#" + HEX.formatHex(sha256.digest(lockId.getBytes(StandardCharsets.UTF_16BE)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required by every Java platform", ex);
		}
	}

}

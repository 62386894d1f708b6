package io.github.distlock.core;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Per-acquisition owner tokens: 128 random bits from {@link SecureRandom}, as 32 hex
 * characters. Unguessable, so no other client can release or extend a lock it does not
 * own.
 */
final class OwnerTokens {

	static final int LENGTH = 32;

	private final SecureRandom random = new SecureRandom();

	String next() {
		byte[] bytes = new byte[16];
		this.random.nextBytes(bytes);
		return HexFormat.of().formatHex(bytes);
	}

}

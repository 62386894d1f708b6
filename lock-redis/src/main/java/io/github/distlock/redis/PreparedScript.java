package io.github.distlock.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * A lock script's SHA-1 (hex) and text, computed once per JVM (Spring's script object
 * computes its SHA-1 under two monitors on every call, which threads of one instance
 * contend for), and the UTF-8 encoding of keys and arguments, as
 * {@code StringRedisTemplate}'s serializers encode them. Shared by the ways the store
 * runs its scripts ({@link LockScriptRunner}).
 */
final class PreparedScript {

	/** By script object: the lock scripts are constants. */
	private static final ConcurrentHashMap<RedisScript<?>, PreparedScript> prepared = new ConcurrentHashMap<>();

	final String sha1;

	final String text;

	final byte[] textBytes;

	private PreparedScript(RedisScript<?> script) {
		this.sha1 = script.getSha1();
		this.text = script.getScriptAsString();
		this.textBytes = this.text.getBytes(StandardCharsets.UTF_8);
	}

	static PreparedScript of(RedisScript<?> script) {
		PreparedScript known = prepared.get(script);
		return (known != null) ? known : prepared.computeIfAbsent(script, PreparedScript::new);
	}

	/** {@code values} as UTF-8 bytes, each in its own array. */
	static byte[][] encoded(List<String> values) {
		return encoded(values, List.of());
	}

	/** {@code values}, then {@code moreValues}, as UTF-8 bytes, each in its own array. */
	static byte[][] encoded(List<String> values, List<String> moreValues) {
		byte[][] encoded = new byte[values.size() + moreValues.size()][];
		int i = 0;
		for (String value : values) {
			encoded[i++] = value.getBytes(StandardCharsets.UTF_8);
		}
		for (String value : moreValues) {
			encoded[i++] = value.getBytes(StandardCharsets.UTF_8);
		}
		return encoded;
	}

}

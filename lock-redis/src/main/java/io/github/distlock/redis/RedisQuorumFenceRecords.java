package io.github.distlock.redis;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The fencing records of a Redis node of a {@link QuorumLockStore}: one script, keeping
 * the record of a lock in {@code <key>:quorum-fence} and the node's first-use time in
 * {@code <prefix>quorum-node-since} (see {@link QuorumFence} for why).
 */
final class RedisQuorumFenceRecords implements QuorumFenceRecords {

	/**
	 * KEYS: quorum fence record, the single-store fence key, node-since. ARGV: proposed
	 * token, retention ms, retention µs. Raises the record and the node's own fence to
	 * the proposal (the next acquisition on this node then continues above it). Returns
	 * {record before, 1 if trusted else 0}.
	 */
	static final RedisScript<List> RECORD_FENCE = RedisScript.of("""
			local now = redis.call('time')
			local micros = tonumber(now[1]) * 1000000 + tonumber(now[2])
			local since = tonumber(redis.call('get', KEYS[3]))
			if not since then
			  since = micros
			  redis.call('set', KEYS[3], string.format('%.0f', since))
			end
			local trusted = 0
			if micros - since >= tonumber(ARGV[3]) then trusted = 1 end
			local proposal = tonumber(ARGV[1])
			local old = tonumber(redis.call('get', KEYS[1])) or 0
			if proposal > old then
			  redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
			else
			  redis.call('pexpire', KEYS[1], ARGV[2])
			end
			local fence = tonumber(redis.call('get', KEYS[2]))
			if not fence or fence < proposal then redis.call('set', KEYS[2], ARGV[1], 'px', ARGV[2]) end
			return {string.format('%.0f', old), trusted}
			""", List.class);

	private final StringRedisTemplate redis;

	private final String nodeSinceKey;

	private final String retentionMillis;

	private final String retentionMicros;

	RedisQuorumFenceRecords(StringRedisTemplate redis, String keyPrefix, long retentionMillis) {
		this.redis = redis;
		this.nodeSinceKey = keyPrefix + "quorum-node-since";
		this.retentionMillis = Long.toString(retentionMillis);
		this.retentionMicros = Long.toString(TimeUnit.MILLISECONDS.toMicros(retentionMillis));
	}

	static String recordKey(String lockKey) {
		return lockKey + ":quorum-fence";
	}

	@Override
	public Recorded record(String key, long proposal) {
		List<?> reply = this.redis.execute(RECORD_FENCE,
				List.of(recordKey(key), LockKeys.fenceKey(key), this.nodeSinceKey), Long.toString(proposal),
				this.retentionMillis, this.retentionMicros);
		if (reply == null || reply.size() != 2) {
			throw new IllegalStateException("Redis returned no reply to the fencing record script");
		}
		return new Recorded(Long.parseLong(String.valueOf(reply.get(0))), ((Number) reply.get(1)).longValue() == 1);
	}

}

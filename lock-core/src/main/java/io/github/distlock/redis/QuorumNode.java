package io.github.distlock.redis;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * One independent Redis of a {@link QuorumLockStore}: the single-Redis store on it, and
 * its template for the quorum's own fencing script.
 *
 * @param name the node's URI without credentials, for messages
 * @param store the single-Redis lock store on the node
 * @param redis the node's template
 */
record QuorumNode(String name, RedisLockStore store, StringRedisTemplate redis) {

}

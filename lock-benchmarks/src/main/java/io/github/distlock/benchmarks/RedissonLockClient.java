package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.distlock.testsupport.RedisServer;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** Redisson's {@link RLock} with its defaults: no lease given, so its watchdog renews the lock. */
final class RedissonLockClient implements LockClient {

    private final RedissonClient redisson;
    private final long waitMillis;

    RedissonLockClient(RedisServer redis, Duration waitTime) {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        this.redisson = Redisson.create(config);
        this.waitMillis = waitTime.toMillis();
    }

    @Override
    public boolean tryRunLocked(String lockId, Runnable action) {
        RLock lock = redisson.getLock("redisson:" + lockId);
        try {
            if (!lock.tryLock(waitMillis, TimeUnit.MILLISECONDS)) {
                return false;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        try {
            action.run();
        } finally {
            lock.unlock();
        }
        return true;
    }

    @Override
    public void close() {
        redisson.shutdown();
    }
}

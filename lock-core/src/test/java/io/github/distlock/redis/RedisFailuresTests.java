package io.github.distlock.redis;

import java.util.concurrent.ExecutionException;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which failures of a lock command leave its outcome unknown (answered as
 * {@code Unknown}) and which are mistakes to throw, with the exceptions Spring Data Redis
 * makes of Lettuce's.
 */
class RedisFailuresTests {

	@AfterEach
	void clearInterrupt() {
		Thread.interrupted();
	}

	@Test
	void anUnreachableRedisLeavesTheOutcomeUnknown() {
		RuntimeException failure = new RedisConnectionFailureException("Unable to connect to Redis",
				new RedisConnectionException("Connection refused"));
		assertThat(RedisFailures.outcomeUnknown(failure)).isTrue();
		assertThat(RedisFailures.unreachableOrCannotWrite(failure)).isTrue();
	}

	@Test
	void aTimeoutLeavesTheOutcomeUnknown() {
		RuntimeException failure = new QueryTimeoutException("Redis command timed out",
				new RedisCommandTimeoutException("Command timed out after 1 second(s)"));
		assertThat(RedisFailures.outcomeUnknown(failure)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "LOADING Redis is loading the dataset in memory",
			"BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.",
			"READONLY You can't write against a read only replica.",
			"MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
			"TRYAGAIN Multiple keys request during rehashing of slot", "CLUSTERDOWN The cluster is down",
			"OOM command not allowed when used memory > 'maxmemory'.", "LOADING",
			"UNBLOCKED force unblock from blocking operation, instance state changed (master -> replica?)",
			// ClusterFailoverSoakTests with min-replicas: a node connection's slot map
			// was still
			// stale after one refresh during the failover.
			"MOVED 4201 127.0.0.1:43691", "ASK 4201 127.0.0.1:43692" })
	void anErrorReplyOfARedisThatCannotWriteForNowLeavesTheOutcomeUnknown(String reply) {
		RuntimeException failure = new RedisSystemException("Error in execution",
				new RedisCommandExecutionException(reply));
		assertThat(RedisFailures.outcomeUnknown(failure)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "NOPERM User app has no permissions to run the 'evalsha' command",
			"NOSCRIPT No matching script. Please use EVAL.", "ERR Error running script",
			"WRONGTYPE Operation against a key", "LOADINGX not a code we know", "" })
	void anyOtherErrorReplyIsAMistake(String reply) {
		RuntimeException failure = new RedisSystemException("Error in execution",
				new RedisCommandExecutionException(reply));
		assertThat(RedisFailures.outcomeUnknown(failure)).isFalse();
	}

	@Test
	void aFailureWithoutCauseIsJudgedByItsOwnMessage() {
		assertThat(RedisFailures.outcomeUnknown(new IllegalStateException("READONLY replica"))).isTrue();
		assertThat(RedisFailures.outcomeUnknown(new IllegalStateException("Redis returned no reply"))).isFalse();
		assertThat(RedisFailures.outcomeUnknown(new InvalidDataAccessApiUsageException("no message"))).isFalse();
	}

	@Test
	void aFailureCausedByAnInterruptLeavesTheOutcomeUnknown() {
		RuntimeException failure = new RedisSystemException("Unknown redis exception",
				new RedisCommandInterruptedException(new InterruptedException()));
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		assertThat(RedisFailures.outcomeUnknown(failure)).isTrue();
		assertThat(RedisFailures.interrupted(failure)).isTrue();
	}

	@Test
	void anInterruptDeepInTheCauseChainIsFound() {
		RuntimeException failure = new RedisSystemException("Error",
				new IllegalStateException(new ExecutionException(new InterruptedException())));
		assertThat(RedisFailures.outcomeUnknown(failure)).isTrue();
	}

	@Test
	void anyFailureOfAnInterruptedThreadLeavesTheOutcomeUnknown() {
		RuntimeException failure = new RedisSystemException("Error in execution",
				new RedisCommandExecutionException("NOPERM no permissions"));
		assertThat(RedisFailures.outcomeUnknown(failure)).isFalse();
		Thread.currentThread().interrupt();
		assertThat(RedisFailures.outcomeUnknown(failure)).isTrue();
		assertThat(RedisFailures.unreachableOrCannotWrite(failure)).isFalse();
	}

	@Test
	void theLogTextNamesRedisReply() {
		RuntimeException failure = new RedisSystemException("Error in execution",
				new RedisCommandExecutionException("NOPERM no permissions"));
		assertThat(RedisFailures.withReply(failure)).contains("Error in execution").endsWith("(NOPERM no permissions)");
		IllegalStateException plain = new IllegalStateException("plain");
		assertThat(RedisFailures.withReply(plain)).isEqualTo(plain.toString());
	}

}

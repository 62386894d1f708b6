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

	/**
	 * A script's write refused for now, as Redis 6.2.11 (the bundled binary) and 7.0.15
	 * (Debian's) answer it: captured from both, with a script that calls {@code GET} then
	 * {@code SET} on a read-only replica and on a master with {@code maxmemory 1} and
	 * {@code noeviction}. Before 7 the code is wrapped in "Error running script".
	 */
	@ParameterizedTest
	@ValueSource(strings = {
			"ERR Error running script (call to f_0b99b485872dc3e8c1a46f9e961f233a78d96400): @user_script:2:"
					+ " @user_script: 2: -READONLY You can't write against a read only replica.",
			"ERR Error running script (call to f_0b99b485872dc3e8c1a46f9e961f233a78d96400): @user_script:2:"
					+ " @user_script: 2: -OOM command not allowed when used memory > 'maxmemory'.",
			"READONLY You can't write against a read only replica."
					+ " script: 0b99b485872dc3e8c1a46f9e961f233a78d96400, on @user_script:2.",
			"OOM command not allowed when used memory > 'maxmemory'."
					+ " script: 0b99b485872dc3e8c1a46f9e961f233a78d96400, on @user_script:2." })
	void aScriptsWriteRefusedForNowLeavesTheOutcomeUnknownOnRedis6And7(String reply) {
		RuntimeException failure = new RedisSystemException("Error in execution",
				new RedisCommandExecutionException(reply));
		assertThat(RedisFailures.outcomeUnknown(failure)).isTrue();
	}

	/**
	 * The code of a command a script called is read where Redis puts it, on 6.2 and 7.0
	 * alike (captured: {@code min-replicas-to-write 3} without replicas).
	 */
	@Test
	void theCodeOfACommandCalledByAScriptIsTheSameOnRedis6And7() {
		assertThat(RedisFailures.errorCode("ERR Error running script (call to"
				+ " f_0b99b485872dc3e8c1a46f9e961f233a78d96400): @user_script:2: @user_script: 2:"
				+ " -NOREPLICAS Not enough good replicas to write."))
			.isEqualTo(RedisFailures.errorCode("NOREPLICAS Not enough good replicas to write."
					+ " script: 0b99b485872dc3e8c1a46f9e961f233a78d96400, on @user_script:2."))
			.isEqualTo("NOREPLICAS");
	}

	/**
	 * Other errors inside scripts, captured from Redis 6.2.11 and 7.0.15: a command's own
	 * error reply (6.2 leaves it without a dash), an ACL refusal, and an error a script
	 * raises itself, whose text may contain anything, a dash and a code too.
	 */
	@ParameterizedTest
	@ValueSource(strings = {
			"ERR Error running script (call to f_4e6d8fc8bb01276962cce5371fa795a7763657ae): @user_script:1:"
					+ " WRONGTYPE Operation against a key holding the wrong kind of value",
			"WRONGTYPE Operation against a key holding the wrong kind of value"
					+ " script: 4e6d8fc8bb01276962cce5371fa795a7763657ae, on @user_script:1.",
			"ERR Error running script (call to f_e6ab355436552067a5d4b7d9de0ebfab80751284): @user_script:1:"
					+ " @user_script: 1: The user executing the script can't run this command or subcommand",
			"ERR The user executing the script can't run this command or subcommand"
					+ " script: e6ab355436552067a5d4b7d9de0ebfab80751284, on @user_script:1.",
			"ERR Error running script (call to f_0c3e2802ca975db434ff514dddbe4c45c8a47e83): @user_script:1:"
					+ " user_script:1: boom -READONLY x",
			"ERR user_script:1: boom -READONLY x script: 0c3e2802ca975db434ff514dddbe4c45c8a47e83,"
					+ " on @user_script:1.",
			// Not where Redis puts a code: not a script's name, or words before the dash.
			"ERR Error running script (call to f_nothex): @user_script:1: @user_script: 1: -READONLY x",
			"ERR Error running script (call to f_0c3e2802ca975db434ff514dddbe4c45c8a47e83): @user_script:1:"
					+ " @user_script: 1: a -READONLY x",
			"ERR Error running script (call to f_0c3e2802ca975db434ff514dddbe4c45c8a47e83): @user_script:1:"
					+ " @user_script: 1: -READONLYX x" })
	void anyOtherErrorInsideAScriptIsAMistake(String reply) {
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

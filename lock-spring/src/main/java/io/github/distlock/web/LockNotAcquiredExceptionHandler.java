package io.github.distlock.web;

import java.time.Duration;

import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * Answers a request that failed with {@link LockNotAcquiredException} with an RFC 9457
 * problem ({@code application/problem+json}), a 4xx or 5xx status (503 by default) and a
 * {@code Retry-After} header, in Spring MVC and in WebFlux applications alike.
 * <p>
 * Opt-in: Spring Boot registers it with {@code distributed-lock.web.enabled=true}. It is
 * asked before {@code @ControllerAdvice} beans without an order; an
 * {@code @ExceptionHandler} of the controller itself still wins. The body does not name
 * the lock (its id may hold request data); the exception is logged at DEBUG.
 */
@ControllerAdvice
public class LockNotAcquiredExceptionHandler implements Ordered {

	/**
	 * The order among {@code @ControllerAdvice} beans: just before those without an
	 * order.
	 */
	public static final int ORDER = Ordered.LOWEST_PRECEDENCE - 1;

	static final String DETAIL = "A lock this request needs was not acquired in time; try again later.";

	private static final Log logger = LogFactory.getLog(LockNotAcquiredExceptionHandler.class);

	private final HttpStatusCode status;

	private final long retryAfterSeconds;

	/**
	 * A handler answering with the given status and {@code Retry-After}.
	 * @param status a 4xx or 5xx status, e.g. 503 or 429
	 * @param retryAfter the {@code Retry-After} to send, rounded up to whole seconds;
	 * zero to send none
	 */
	public LockNotAcquiredExceptionHandler(int status, Duration retryAfter) {
		HttpStatusCode code = HttpStatusCode.valueOf(status);
		if (!code.isError()) {
			throw new IllegalArgumentException("status must be a 4xx or 5xx status, but was " + status);
		}
		if (retryAfter.isNegative()) {
			throw new IllegalArgumentException("retryAfter must not be negative");
		}
		this.status = code;
		this.retryAfterSeconds = roundUpToSeconds(retryAfter);
	}

	@ExceptionHandler(LockNotAcquiredException.class)
	public ResponseEntity<ProblemDetail> lockNotAcquired(LockNotAcquiredException ex) {
		if (logger.isDebugEnabled()) {
			logger.debug(
					"Answering " + this.status.value() + ": lock '" + LogSafe.text(ex.getLockId()) + "' not acquired",
					ex);
		}
		ResponseEntity.BodyBuilder response = ResponseEntity.status(this.status);
		if (this.retryAfterSeconds > 0) {
			response.header(HttpHeaders.RETRY_AFTER, Long.toString(this.retryAfterSeconds));
		}
		return response.body(ProblemDetail.forStatusAndDetail(this.status, DETAIL));
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

	private static long roundUpToSeconds(Duration duration) {
		return (duration.getNano() > 0) ? duration.getSeconds() + 1 : duration.getSeconds();
	}

}

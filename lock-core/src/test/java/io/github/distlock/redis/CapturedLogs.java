package io.github.distlock.redis;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import org.slf4j.LoggerFactory;

/**
 * The log events of every logger while open, from a given level up: the root logger is
 * set to that level and restored on close.
 */
public final class CapturedLogs extends AppenderBase<ILoggingEvent> implements AutoCloseable {

	private final Queue<ILoggingEvent> events = new ConcurrentLinkedQueue<>();

	private final Logger root;

	private final Level previousLevel;

	private CapturedLogs() {
		this.root = ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
		this.previousLevel = this.root.getLevel();
	}

	/** Every event, {@code TRACE} and up. */
	public static CapturedLogs all() {
		return from(Level.TRACE);
	}

	public static CapturedLogs from(Level level) {
		CapturedLogs logs = new CapturedLogs();
		logs.setContext(logs.root.getLoggerContext());
		logs.start();
		logs.root.addAppender(logs);
		logs.root.setLevel(level);
		return logs;
	}

	@Override
	protected void append(ILoggingEvent event) {
		event.prepareForDeferredProcessing();
		this.events.add(event);
	}

	public List<ILoggingEvent> events() {
		return List.copyOf(this.events);
	}

	/**
	 * Events at {@code level} or above, from loggers whose name starts with
	 * {@code loggerPrefix}.
	 */
	public List<ILoggingEvent> atLeast(Level level, String loggerPrefix) {
		return this.events.stream()
			.filter((event) -> event.getLevel().isGreaterOrEqual(level)
					&& event.getLoggerName().startsWith(loggerPrefix))
			.toList();
	}

	/**
	 * The formatted message and every throwable's class and message, as a log file would
	 * show them.
	 */
	public static String fullText(ILoggingEvent event) {
		StringBuilder text = new StringBuilder(event.getFormattedMessage());
		for (IThrowableProxy proxy = event.getThrowableProxy(); proxy != null; proxy = proxy.getCause()) {
			text.append('\n').append(proxy.getClassName()).append(": ").append(proxy.getMessage());
			for (IThrowableProxy suppressed : proxy.getSuppressed()) {
				text.append("\nSuppressed: ")
					.append(suppressed.getClassName())
					.append(": ")
					.append(suppressed.getMessage());
			}
		}
		return text.toString();
	}

	@Override
	public void close() {
		this.root.detachAppender(this);
		this.root.setLevel(this.previousLevel);
		stop();
	}

}

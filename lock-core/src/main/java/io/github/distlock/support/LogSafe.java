package io.github.distlock.support;

/**
 * Makes user-supplied text (lock ids, keys) safe to put into a log line or exception
 * message: line breaks, other control characters and bidirectional overrides are escaped
 * so that a key cannot forge or disguise log lines, and long values are shortened.
 */
public final class LogSafe {

	private static final int MAX_LENGTH = 120;

	private LogSafe() {
	}

	public static String text(String value) {
		StringBuilder out = new StringBuilder(Math.min(value.length(), MAX_LENGTH) + 24);
		int length = Math.min(value.length(), MAX_LENGTH);
		for (int i = 0; i < length; i++) {
			char c = value.charAt(i);
			if (isUnsafe(c)) {
				out.append(String.format("\\u%04x", (int) c));
			}
			else {
				out.append(c);
			}
		}
		if (value.length() > MAX_LENGTH) {
			out.append("...(").append(value.length()).append(" chars)");
		}
		return out.toString();
	}

	/**
	 * Control characters (C0 and C1: line breaks, terminal escapes), line and paragraph
	 * separators, and format characters (bidirectional overrides, which reorder what a
	 * reader sees).
	 */
	private static boolean isUnsafe(char c) {
		int type = Character.getType(c);
		return type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
				|| type == Character.PARAGRAPH_SEPARATOR;
	}

}

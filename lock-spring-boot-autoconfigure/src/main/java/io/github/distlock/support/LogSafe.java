package io.github.distlock.support;

/**
 * Makes user-supplied text (lock ids, keys) safe to put into a log line or exception message:
 * line breaks and other control characters are escaped so that a key cannot forge log lines, and
 * long values are shortened.
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
			if (c < 0x20 || c == 0x7f || c == '\u0085' || c == '\u2028' || c == '\u2029') {
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

}

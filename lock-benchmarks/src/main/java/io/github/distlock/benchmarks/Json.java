package io.github.distlock.benchmarks;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Writes maps, lists, strings, numbers and booleans as indented JSON. */
final class Json {

	private Json() {
	}

	static String write(Object value) {
		StringBuilder out = new StringBuilder();
		write(value, out, "");
		return out.append('\n').toString();
	}

	private static void write(Object value, StringBuilder out, String indent) {
		if (value == null) {
			out.append("null");
		}
		else if (value instanceof Map<?, ?> map) {
			writeEntries(map.entrySet().iterator(), out, indent, '{', '}', true);
		}
		else if (value instanceof List<?> list) {
			writeEntries(list.iterator(), out, indent, '[', ']', false);
		}
		else if (value instanceof Double number) {
			out.append(number.isNaN() || number.isInfinite() ? "null" : number.toString());
		}
		else if (value instanceof Number || value instanceof Boolean) {
			out.append(value);
		}
		else {
			string(value.toString(), out);
		}
	}

	private static void writeEntries(Iterator<?> entries, StringBuilder out, String indent, char open, char close,
			boolean keyed) {
		if (!entries.hasNext()) {
			out.append(open).append(close);
			return;
		}
		String inner = indent + "  ";
		out.append(open).append('\n');
		while (entries.hasNext()) {
			out.append(inner);
			Object entry = entries.next();
			if (keyed) {
				Map.Entry<?, ?> keyValue = (Map.Entry<?, ?>) entry;
				string(String.valueOf(keyValue.getKey()), out);
				out.append(": ");
				write(keyValue.getValue(), out, inner);
			}
			else {
				write(entry, out, inner);
			}
			out.append(entries.hasNext() ? ",\n" : "\n");
		}
		out.append(indent).append(close);
	}

	private static void string(String text, StringBuilder out) {
		out.append('"');
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '"' -> out.append("\\\"");
				case '\\' -> out.append("\\\\");
				case '\n' -> out.append("\\n");
				case '\r' -> out.append("\\r");
				case '\t' -> out.append("\\t");
				default -> {
					if (c < 0x20) {
						out.append(String.format("\\u%04x", (int) c));
					}
					else {
						out.append(c);
					}
				}
			}
		}
		out.append('"');
	}

}

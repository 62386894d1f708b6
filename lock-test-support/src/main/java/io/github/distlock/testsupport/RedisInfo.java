package io.github.distlock.testsupport;

/** Reads fields of an {@code INFO} reply, e.g. {@code master_link_status:up}. */
final class RedisInfo {

	private RedisInfo() {
	}

	/**
	 * The value of {@code name} in {@code info}.
	 * @throws RedisServerException if there is no such field, quoting the reply
	 */
	static String field(String info, String name) {
		String prefix = name + ":";
		return info.lines()
			.map(String::trim)
			.filter(line -> line.startsWith(prefix))
			.map(line -> line.substring(prefix.length()))
			.findFirst()
			.orElseThrow(() -> new RedisServerException("INFO has no field " + name + ": " + info));
	}

}

package io.github.distlock.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The flags a topology's builder adds to each of its data nodes, e.g.
 * {@code maxmemory-policy noeviction}; see {@link RedisServer.Builder#arg}.
 */
final class NodeArgs {

	private final List<List<String>> args = new ArrayList<>();

	void add(String name, String... values) {
		List<String> arg = new ArrayList<>();
		arg.add(Objects.requireNonNull(name, "name"));
		arg.addAll(List.of(values));
		args.add(arg);
	}

	/** Adds every flag to {@code node}; returns it. */
	RedisServer.Builder applyTo(RedisServer.Builder node) {
		for (List<String> arg : args) {
			node.arg(arg.get(0), arg.subList(1, arg.size()).toArray(String[]::new));
		}
		return node;
	}

}

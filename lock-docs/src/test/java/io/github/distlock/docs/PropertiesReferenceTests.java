package io.github.distlock.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.distlock.docs.Markdown.CodeBlock;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/properties.md} lists every property of distlock's configuration metadata
 * once, with the metadata's default and description, between its {@code properties:start}
 * and {@code properties:end} markers; and every {@code distributed-lock.*} or
 * {@code spring.data.redis.*} property any page names (in text or in a YAML block)
 * exists. Run with {@code -Ddocs.update=true} to rewrite the reference from the metadata.
 */
class PropertiesReferenceTests {

	private static final String START = "<!-- properties:start";

	private static final String END = "<!-- properties:end -->";

	private static final Pattern NAMED = Pattern
		.compile("(?<![\\w.-])((?:distributed-lock|spring\\.data\\.redis|management\\.endpoint\\.locks"
				+ "|management\\.health\\.distributed-lock)\\.[a-z0-9.-]*[a-z0-9])");

	@Test
	void theReferenceListsTheMetadata() throws IOException {
		Path page = Markdown.root().resolve("docs/properties.md");
		String text = Markdown.read(page);
		int start = text.indexOf(START);
		int startEnd = text.indexOf("-->", start) + "-->".length();
		int end = text.indexOf(END);
		assertThat(start).as("%s in docs/properties.md", START).isNotNegative();
		assertThat(end).as("%s in docs/properties.md", END).isGreaterThan(start);
		String expected = "\n" + table(distlockProperties()) + "\n";
		if (Boolean.getBoolean("docs.update")) {
			Files.writeString(page, text.substring(0, startEnd) + expected + text.substring(end));
			return;
		}
		assertThat(text.substring(startEnd, end))
			.as("docs/properties.md's table (mvn -pl lock-docs test -Dtest=PropertiesReferenceTests"
					+ " -Ddocs.update=true rewrites it)")
			.isEqualTo(expected);
	}

	@Test
	void everyPropertyTheDocsNameExists() {
		Set<String> known = new TreeSet<>();
		allMetadata().forEach((metadata) -> {
			metadata.get("properties").forEach((property) -> known.add(property.get("name").asString()));
			metadata.get("groups").forEach((group) -> known.add(group.get("name").asString()));
		});
		List<String> unknown = new ArrayList<>();
		for (Path page : Markdown.pages()) {
			Matcher named = NAMED.matcher(Markdown.read(page));
			while (named.find()) {
				if (!known.contains(named.group(1))) {
					unknown.add(Markdown.name(page) + ": " + named.group(1));
				}
			}
			for (CodeBlock block : Markdown.codeBlocks(page)) {
				if (block.language().equals("yaml")) {
					for (String name : yamlNames(block.content())) {
						if (NAMED.matcher(name).matches() && !known.contains(name)) {
							unknown.add(block.where() + ": " + name);
						}
					}
				}
			}
		}
		assertThat(unknown).as("properties named in the docs that no metadata has").isEmpty();
	}

	/** The properties of distlock's own metadata, by name. */
	static Map<String, JsonNode> distlockProperties() {
		Map<String, JsonNode> properties = new TreeMap<>();
		for (JsonNode metadata : allMetadata()) {
			boolean ours = false;
			for (JsonNode group : metadata.get("groups")) {
				ours |= group.get("name").asString().equals("distributed-lock");
			}
			if (ours) {
				metadata.get("properties")
					.forEach((property) -> properties.put(property.get("name").asString(), property));
			}
		}
		assertThat(properties).as("distlock's configuration metadata").isNotEmpty();
		return properties;
	}

	static String table(Map<String, JsonNode> properties) {
		StringBuilder table = new StringBuilder("| property | default | description |\n|---|---|---|\n");
		properties.forEach((name, property) -> {
			table.append("| `").append(name).append("` | ").append(defaultValue(property)).append(" | ");
			table.append(cell(property.path("description").asString("")));
			JsonNode deprecation = property.get("deprecation");
			if (deprecation != null) {
				table.append(" *Deprecated");
				if (deprecation.has("since")) {
					table.append(" since ").append(deprecation.get("since").asString());
				}
				if (deprecation.has("replacement")) {
					table.append(": use `").append(deprecation.get("replacement").asString()).append('`');
				}
				table.append(".*");
			}
			table.append(" |\n");
		});
		return table.toString();
	}

	private static String defaultValue(JsonNode property) {
		JsonNode value = property.get("defaultValue");
		if (value == null || value.isNull() || (value.isArray() && value.isEmpty())) {
			return "";
		}
		if (value.isArray()) {
			List<String> items = new ArrayList<>();
			value.forEach((item) -> items.add(item.asString()));
			return "`" + String.join(",", items) + "`";
		}
		return "`" + value.asString() + "`";
	}

	private static String cell(String text) {
		return text.replace("|", "\\|").replace("\n", " ");
	}

	private static List<JsonNode> allMetadata() {
		JsonMapper json = JsonMapper.builder().build();
		List<JsonNode> metadata = new ArrayList<>();
		try {
			for (URL url : Collections.list(PropertiesReferenceTests.class.getClassLoader()
				.getResources("META-INF/spring-configuration-metadata.json"))) {
				try (InputStream in = url.openStream()) {
					JsonNode node = json.readTree(in);
					if (!node.has("groups")) {
						((ObjectNode) node).putArray("groups");
					}
					if (!node.has("properties")) {
						((ObjectNode) node).putArray("properties");
					}
					metadata.add(node);
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return metadata;
	}

	/** The dotted names of a YAML block's leaves. */
	private static Set<String> yamlNames(String yaml) {
		Set<String> names = new TreeSet<>();
		for (Object document : new Yaml().loadAll(yaml)) {
			flatten("", document, names);
		}
		return names;
	}

	private static void flatten(String prefix, Object value, Set<String> names) {
		if (value instanceof Map<?, ?> map) {
			new LinkedHashMap<>(map)
				.forEach((key, child) -> flatten(prefix + (prefix.isEmpty() ? "" : ".") + key, child, names));
		}
		else if (!prefix.isEmpty()) {
			names.add(prefix);
		}
	}

}

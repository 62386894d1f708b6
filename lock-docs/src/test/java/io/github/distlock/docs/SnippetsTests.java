package io.github.distlock.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.github.distlock.docs.Markdown.CodeBlock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Java block of the docs is either a snippet, the tagged region of a source in this
 * module that the build compiles (and mostly runs), or an API listing
 * ({@link ApiListingsTests}); a snippet reads exactly as its region, so the docs cannot
 * drift from the code.
 * <p>
 * In Markdown: {@code <!-- snippet: shop/StockService.java#buy -->} right before the
 * block; in the source: {@code // tag::buy[]} ... {@code // end::buy[]}. Tabs become 4
 * spaces and the region's common indentation is removed.
 */
class SnippetsTests {

	static final Path SOURCES = Markdown.root().resolve("lock-docs/src/test/java/io/github/distlock/docs");

	@Test
	void everyJavaBlockIsASnippetOrAnApiListing() {
		List<String> unmarked = new ArrayList<>();
		for (Path page : Markdown.pages()) {
			for (CodeBlock block : Markdown.codeBlocks(page)) {
				if (block.language().equals("java") && block.marker() == null) {
					unmarked.add(block.where());
				}
			}
		}
		assertThat(unmarked).as("Java blocks without <!-- snippet: ... --> or <!-- api: ... --> before them").isEmpty();
	}

	@Test
	void everySnippetReadsAsItsRegion() {
		List<String> drifted = new ArrayList<>();
		int snippets = 0;
		for (Path page : Markdown.pages()) {
			for (CodeBlock block : Markdown.codeBlocks(page)) {
				if (block.marker() == null || !block.marker().kind().equals("snippet")) {
					continue;
				}
				snippets++;
				String region = region(block.marker().target());
				if (!region.equals(block.content())) {
					drifted.add(block.where() + " should read, as " + block.marker().target() + " does:\n" + region);
				}
			}
		}
		assertThat(snippets).as("snippets in the docs").isPositive();
		assertThat(drifted).as("snippets that differ from their source").isEmpty();
	}

	/** The tagged region {@code file#tag}, as a Markdown block shows it. */
	static String region(String target) {
		int hash = target.indexOf('#');
		assertThat(hash).as("snippet target '%s' is file#tag", target).isPositive();
		Path source = SOURCES.resolve(target.substring(0, hash));
		String tag = target.substring(hash + 1);
		assertThat(source).as("source of snippet '%s'", target).exists();
		List<String> lines = Markdown.read(source).lines().toList();
		int start = indexOf(lines, "// tag::" + tag + "[]", 0, target);
		int end = indexOf(lines, "// end::" + tag + "[]", start, target);
		List<String> region = lines.subList(start + 1, end)
			.stream()
			.map((line) -> line.replace("\t", "    ").stripTrailing())
			.toList();
		int indent = region.stream()
			.filter((line) -> !line.isBlank())
			.mapToInt((line) -> line.length() - line.stripLeading().length())
			.min()
			.orElse(0);
		StringBuilder text = new StringBuilder();
		for (String line : region) {
			text.append(line.isBlank() ? "" : line.substring(indent)).append('\n');
		}
		return text.toString();
	}

	private static int indexOf(List<String> lines, String marker, int from, String target) {
		for (int i = from; i < lines.size(); i++) {
			if (lines.get(i).strip().equals(marker)) {
				return i;
			}
		}
		throw new AssertionError("No '" + marker + "' for snippet " + target);
	}

	@Test
	void everyRegionIsShown() {
		List<String> shown = new ArrayList<>();
		for (Path page : Markdown.pages()) {
			for (CodeBlock block : Markdown.codeBlocks(page)) {
				if (block.marker() != null && block.marker().kind().equals("snippet")) {
					shown.add(block.marker().target());
				}
			}
		}
		List<String> unshown = new ArrayList<>();
		try (Stream<Path> sources = Files.walk(SOURCES)) {
			for (Path source : sources.filter((path) -> path.toString().endsWith(".java")).toList()) {
				for (String line : Markdown.read(source).lines().toList()) {
					String stripped = line.strip();
					if (stripped.startsWith("// tag::") && stripped.endsWith("[]")) {
						String target = SOURCES.relativize(source).toString().replace('\\', '/') + "#"
								+ stripped.substring("// tag::".length(), stripped.length() - 2);
						if (!shown.contains(target)) {
							unshown.add(target);
						}
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		assertThat(unshown).as("tagged regions no page shows").isEmpty();
	}

}

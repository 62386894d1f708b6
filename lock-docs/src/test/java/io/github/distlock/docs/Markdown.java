package io.github.distlock.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * The repository's Markdown pages and their fenced code blocks, as the documentation
 * tests read them.
 */
final class Markdown {

	private static final Pattern FENCE = Pattern.compile("^( *)```(\\S*)\\s*$");

	private static final Pattern MARKER = Pattern.compile("^\\s*<!--\\s*(snippet|api):\\s*(\\S+)\\s*-->\\s*$");

	private Markdown() {
	}

	/** The repository's root: the first directory up from here with {@code mvnw}. */
	static Path root() {
		Path directory = Path.of("").toAbsolutePath();
		while (directory != null) {
			if (Files.exists(directory.resolve("mvnw")) && Files.isDirectory(directory.resolve("docs"))) {
				return directory;
			}
			directory = directory.getParent();
		}
		throw new IllegalStateException(
				"No repository root (with mvnw and docs/) above " + Path.of("").toAbsolutePath());
	}

	/**
	 * {@code README.md}, {@code CONTRIBUTING.md}, {@code CHANGELOG.md} and
	 * {@code docs/*.md}.
	 */
	static List<Path> pages() {
		Path root = root();
		List<Path> pages = new ArrayList<>();
		for (String name : List.of("README.md", "CONTRIBUTING.md", "CHANGELOG.md")) {
			if (Files.exists(root.resolve(name))) {
				pages.add(root.resolve(name));
			}
		}
		try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return pages;
	}

	static String read(Path path) {
		try {
			return Files.readString(path);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The page's name relative to the repository's root, for messages. */
	static String name(Path page) {
		return root().relativize(page).toString();
	}

	/** The fenced code blocks of a page, with the marker comment right before each. */
	static List<CodeBlock> codeBlocks(Path page) {
		List<String> lines = read(page).lines().toList();
		List<CodeBlock> blocks = new ArrayList<>();
		for (int i = 0; i < lines.size(); i++) {
			Matcher open = FENCE.matcher(lines.get(i));
			if (!open.matches()) {
				continue;
			}
			String indent = open.group(1);
			StringBuilder content = new StringBuilder();
			int end = i + 1;
			while (end < lines.size() && !lines.get(end).equals(indent + "```")) {
				String line = lines.get(end);
				content.append(line.startsWith(indent) ? line.substring(indent.length()) : line.strip()).append('\n');
				end++;
			}
			blocks.add(new CodeBlock(page, i + 1, open.group(2), marker(lines, i), content.toString()));
			i = end;
		}
		return blocks;
	}

	private static @Nullable Marker marker(List<String> lines, int fence) {
		for (int i = fence - 1; i >= 0; i--) {
			if (lines.get(i).isBlank()) {
				continue;
			}
			Matcher marker = MARKER.matcher(lines.get(i));
			return marker.matches() ? new Marker(marker.group(1), marker.group(2)) : null;
		}
		return null;
	}

	/**
	 * A fenced code block.
	 *
	 * @param page the page
	 * @param line the line of its opening fence
	 * @param language what follows the fence, e.g. {@code java}
	 * @param marker the {@code <!-- snippet: ... -->} or {@code <!-- api: ... -->}
	 * comment right before it
	 * @param content its lines, each ending with a line break
	 */
	record CodeBlock(Path page, int line, String language, @Nullable Marker marker, String content) {

		String where() {
			return name(this.page) + ":" + this.line;
		}

	}

	/**
	 * What a block shows: {@code snippet} (a tagged region, e.g.
	 * {@code shop/StockService.java#buy}) or {@code api} (a public type's signatures,
	 * e.g. {@code io.github.distlock.LockService}).
	 *
	 * @param kind {@code snippet} or {@code api}
	 * @param target the region or the type
	 */
	record Marker(String kind, String target) {
	}

}

package io.github.distlock.docs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.distlock.docs.Markdown.CodeBlock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reader can find their way: the README stays a front door that links every guide page,
 * every relative link and anchor leads somewhere, the guide states rules and links the
 * tests that prove them instead of narrating test classes, and every distlock artifact a
 * Maven snippet names exists.
 */
class NavigationTests {

	private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

	private static final Pattern HEADING = Pattern.compile("^#{1,6} +(.+?) *$");

	private static final Pattern TEST_CLASS = Pattern.compile("\\b[A-Z][a-z][A-Za-z0-9]*(Tests|IT)\\b");

	private static final Pattern ARTIFACT = Pattern.compile("<artifactId>(lock-[a-z0-9-]+)</artifactId>");

	/**
	 * Pages that may name test classes: the ones about the build and its measurements.
	 */
	private static final Set<String> ABOUT_THE_BUILD = Set.of("CONTRIBUTING.md", "CHANGELOG.md", "docs/benchmarks.md",
			"docs/benchmarks-history.md", "docs/simulation.md", "docs/nemesis.md");

	@Test
	void theReadmeIsAFrontDoorToEveryPage() {
		Path readme = Markdown.root().resolve("README.md");
		String text = Markdown.read(readme);
		assertThat(text.lines().count()).as("README.md's lines").isLessThanOrEqualTo(300);
		assertThat(text).as("README.md's table of contents").contains("## Contents");
		List<String> unlinked = new ArrayList<>();
		for (Path page : Markdown.pages()) {
			String name = Markdown.name(page);
			if (name.startsWith("docs/") && !name.equals("docs/benchmarks-history.md")
					&& !text.contains("](" + name + ")") && !text.contains("](" + name + "#")) {
				unlinked.add(name);
			}
		}
		assertThat(unlinked).as("guide pages the README does not link").isEmpty();
	}

	@Test
	void everyRelativeLinkLeadsSomewhere() {
		Map<Path, Set<String>> anchors = new HashMap<>();
		List<String> broken = new ArrayList<>();
		for (Path page : Markdown.pages()) {
			Matcher link = LINK.matcher(withoutCode(Markdown.read(page)));
			while (link.find()) {
				String target = link.group(1);
				if (target.matches("^[a-z]+:.*")) {
					continue;
				}
				int hash = target.indexOf('#');
				String file = (hash < 0) ? target : target.substring(0, hash);
				Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
				if (!Files.exists(resolved)) {
					broken.add(Markdown.name(page) + ": " + target + " (no such file)");
				}
				else if (hash >= 0 && resolved.toString().endsWith(".md")
						&& !anchors.computeIfAbsent(resolved, NavigationTests::anchors)
							.contains(target.substring(hash + 1))) {
					broken.add(Markdown.name(page) + ": " + target + " (no such heading)");
				}
			}
		}
		assertThat(broken).as("broken links").isEmpty();
	}

	@Test
	void theGuideLinksTestsInsteadOfNarratingThem() {
		List<String> narrated = new ArrayList<>();
		for (Path page : Markdown.pages()) {
			if (ABOUT_THE_BUILD.contains(Markdown.name(page))) {
				continue;
			}
			String prose = withoutCode(Markdown.read(page)).replaceAll("<!--.*?-->", "")
				.replaceAll("\\]\\([^)]*\\)", "]");
			Matcher test = TEST_CLASS.matcher(prose);
			while (test.find()) {
				narrated.add(Markdown.name(page) + ": " + test.group());
			}
		}
		assertThat(narrated).as("test classes named in the guide (link the test instead: [proof](../path/XTests.java))")
			.isEmpty();
	}

	@Test
	void everyArtifactASnippetNamesExists() {
		List<String> missing = new ArrayList<>();
		for (Path page : Markdown.pages()) {
			for (CodeBlock block : Markdown.codeBlocks(page)) {
				Matcher artifact = ARTIFACT.matcher(block.content());
				while (artifact.find()) {
					if (!Files.exists(Markdown.root().resolve(artifact.group(1)).resolve("pom.xml"))) {
						missing.add(block.where() + ": " + artifact.group(1));
					}
				}
			}
		}
		assertThat(missing).as("artifacts named in snippets that the build has no module for").isEmpty();
	}

	/** GitHub's anchors of a page's headings. */
	static Set<String> anchors(Path page) {
		Set<String> anchors = new HashSet<>();
		Map<String, Integer> seen = new HashMap<>();
		for (String line : withoutCode(Markdown.read(page)).lines().toList()) {
			Matcher heading = HEADING.matcher(line);
			if (heading.matches()) {
				String slug = slug(heading.group(1));
				int count = seen.merge(slug, 1, Integer::sum);
				anchors.add((count == 1) ? slug : slug + "-" + (count - 1));
			}
		}
		return anchors;
	}

	static String slug(String heading) {
		String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
		StringBuilder slug = new StringBuilder();
		text.codePoints().forEach((c) -> {
			if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
				slug.appendCodePoint(c);
			}
			else if (c == ' ') {
				slug.append('-');
			}
		});
		return slug.toString();
	}

	/** The text outside fenced code blocks. */
	private static String withoutCode(String markdown) {
		StringBuilder prose = new StringBuilder();
		boolean inCode = false;
		for (String line : markdown.lines().toList()) {
			if (line.strip().startsWith("```")) {
				inCode = !inCode;
				continue;
			}
			if (!inCode) {
				prose.append(line).append('\n');
			}
		}
		return prose.toString();
	}

}

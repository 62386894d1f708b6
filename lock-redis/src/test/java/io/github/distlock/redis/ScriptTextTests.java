package io.github.distlock.redis;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.script.RedisScript;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Lua script Redis runs exists whole, as text, in {@code src/main/lua}: the file a
 * reviewer diffs when a script changes. The scripts are assembled in Java from shared
 * fragments ({@link LockScripts#OWNS}, {@link LockScripts#RECEIPT}, the queue and shared
 * functions); this test finds every {@code static RedisScript} of the package and fails
 * when its text differs from its file, or when a file has no script. After changing a
 * script, rewrite the files and commit them with the change:
 *
 * <pre>
 * ./mvnw -pl lock-redis test -Dtest=ScriptTextTests -Ddistlock.scripts.write=true
 * </pre>
 */
class ScriptTextTests {

	private static final Path SCRIPTS = Path.of("src", "main", "lua");

	private static final String HEADER = "-- ";

	@Test
	void everyScriptIsCommittedAsTheTextRedisRuns() throws Exception {
		Map<String, Script> scripts = scripts();
		assertThat(scripts).as("the package's scripts").hasSizeGreaterThanOrEqualTo(14);
		if (Boolean.getBoolean("distlock.scripts.write")) {
			write(scripts);
		}
		List<String> stale = new ArrayList<>();
		for (Script script : scripts.values()) {
			Path file = SCRIPTS.resolve(script.fileName());
			if (!Files.exists(file) || !Files.readString(file).equals(script.fileText())) {
				stale.add(file.toString());
			}
		}
		assertThat(stale)
			.as("scripts whose committed text is missing or differs from what Redis runs; rewrite them with "
					+ "./mvnw -pl lock-redis test -Dtest=ScriptTextTests -Ddistlock.scripts.write=true")
			.isEmpty();
		try (Stream<Path> files = Files.list(SCRIPTS)) {
			assertThat(files.map((file) -> file.getFileName().toString())).as("files in %s with no script", SCRIPTS)
				.containsExactlyInAnyOrderElementsOf(scripts.keySet());
		}
	}

	private static void write(Map<String, Script> scripts) throws IOException {
		Files.createDirectories(SCRIPTS);
		try (Stream<Path> files = Files.list(SCRIPTS)) {
			for (Path file : (Iterable<Path>) files::iterator) {
				if (!scripts.containsKey(file.getFileName().toString())) {
					Files.delete(file);
				}
			}
		}
		for (Script script : scripts.values()) {
			Files.writeString(SCRIPTS.resolve(script.fileName()), script.fileText());
		}
	}

	/** Every {@code static RedisScript} field of the package's classes, by file name. */
	private static Map<String, Script> scripts() throws IOException, URISyntaxException, ReflectiveOperationException {
		Path classes = Path.of(LockScripts.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		Path pkg = classes.resolve(LockScripts.class.getPackageName().replace('.', '/'));
		Map<String, Script> scripts = new TreeMap<>();
		try (Stream<Path> files = Files.list(pkg)) {
			for (Path file : (Iterable<Path>) files::iterator) {
				String name = file.getFileName().toString();
				if (name.endsWith(".class") && !name.contains("$")) {
					addScripts(Class.forName(LockScripts.class.getPackageName() + "." + name.replace(".class", "")),
							scripts);
				}
			}
		}
		return scripts;
	}

	private static void addScripts(Class<?> type, Map<String, Script> scripts) throws IllegalAccessException {
		for (Field field : type.getDeclaredFields()) {
			if (Modifier.isStatic(field.getModifiers()) && RedisScript.class.isAssignableFrom(field.getType())) {
				field.setAccessible(true);
				Script script = new Script(type.getSimpleName() + "." + field.getName(),
						((RedisScript<?>) field.get(null)).getScriptAsString());
				Script clash = scripts.put(script.fileName(), script);
				assertThat(clash).as("two scripts named %s", script.fileName()).isNull();
			}
		}
	}

	/** A script and the Java field it is assembled in. */
	private record Script(String field, String text) {

		/**
		 * The field's name in lower case, words joined by hyphens:
		 * {@code acquire-fair.lua}.
		 */
		String fileName() {
			String name = this.field.substring(this.field.indexOf('.') + 1);
			return name.toLowerCase(Locale.ROOT).replace('_', '-') + ".lua";
		}

		String fileText() {
			return HEADER + "Assembled in io.github.distlock.redis." + this.field
					+ "; ScriptTextTests checks that it is this text.\n" + this.text
					+ (this.text.endsWith("\n") ? "" : "\n");
		}

	}

}

package io.github.distlock.simulation;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Runs the simulation over the main code with a {@link Mutant} put back: the edited
 * sources are compiled (with the JDK's compiler, against the test class path) into a
 * directory that a fresh class loader searches first, so the simulation and everything it
 * uses are loaded again over the edited classes, seed after seed until a seed fails.
 */
final class Mutants {

	/**
	 * The main sources of the modules the simulation runs: the engine's and the stores'.
	 */
	private static final List<Path> SOURCES = List.of(
			Path.of("lock-core", "src", "main", "java", "io", "github", "distlock"),
			Path.of("lock-redis", "src", "main", "java", "io", "github", "distlock"));

	private Mutants() {
	}

	/**
	 * Runs seeds from 1 on until one fails or {@code maxSeeds} passed.
	 * @return what was found
	 */
	static Found find(Mutant mutant, int maxSeeds) throws Exception {
		long start = System.nanoTime();
		Path work = Files.createTempDirectory("distlock-mutant-");
		try {
			Path classes = compiled(mutant, work);
			try (URLClassLoader loader = loader(classes)) {
				Class<?> simRun = loader.loadClass(SimRun.class.getName());
				Method run = simRun.getDeclaredMethod("run", long.class, int.class);
				run.setAccessible(true);
				List<Long> failingWithout = new ArrayList<>();
				for (long seed = 1; seed <= maxSeeds; seed++) {
					Object result = run.invoke(null, seed, 400);
					List<?> violations = (List<?>) accessor(result, "violations").invoke(result);
					if (!violations.isEmpty()) {
						// Found only if the same world keeps every invariant without the
						// mutant: else the seed shows something else (the code's, or the
						// checker's), not this defect.
						if (!SimRun.run(seed, 400).passed()) {
							failingWithout.add(seed);
							continue;
						}
						return new Found(mutant, seed, String.valueOf(violations.get(0)).strip(),
								(System.nanoTime() - start) / 1_000_000, failingWithout);
					}
				}
				return new Found(mutant, 0, null, (System.nanoTime() - start) / 1_000_000, failingWithout);
			}
		}
		finally {
			deleteQuietly(work);
		}
	}

	/**
	 * Calls the static, parameterless {@code method} of the test class {@code scenario}
	 * over the main code with {@code mutant} put back (loaded as {@link #find} does).
	 * @return what it returned
	 */
	static Object runScenario(Mutant mutant, Class<?> scenario, String method) throws Exception {
		Path work = Files.createTempDirectory("distlock-mutant-");
		try {
			Path classes = compiled(mutant, work);
			try (URLClassLoader loader = loader(classes)) {
				Method run = loader.loadClass(scenario.getName()).getDeclaredMethod(method);
				run.setAccessible(true);
				return run.invoke(null);
			}
		}
		finally {
			deleteQuietly(work);
		}
	}

	/**
	 * The main classes {@code mutant} edits, edited and compiled into {@code work}.
	 * @return the folder of the compiled classes, to put before the test class path
	 */
	static Path compiled(Mutant mutant, Path work) throws IOException {
		List<Path> edited = edit(mutant, work.resolve("src"));
		Path classes = Files.createDirectories(work.resolve("classes"));
		compile(edited, classes);
		return classes;
	}

	/** The test class path (surefire's, not its booter's manifest-only jar). */
	static String testClassPath() {
		return classPath();
	}

	/** Deletes {@code dir} and what is in it, as far as it can. */
	static void delete(Path dir) {
		deleteQuietly(dir);
	}

	private static List<Path> edit(Mutant mutant, Path into) throws IOException {
		Map<String, String> sources = new LinkedHashMap<>();
		for (Mutant.Edit edit : mutant.edits()) {
			String source = sources.computeIfAbsent(edit.file(), (file) -> read(source(file)));
			Matcher matcher = pattern(edit.find()).matcher(source);
			int times = 0;
			while (matcher.find()) {
				times++;
			}
			if (times != edit.times()) {
				throw new IllegalStateException(
						mutant + ": expected " + edit.times() + " occurrence(s) of\n" + edit.find() + "\nin "
								+ edit.file() + ", found " + times + ": the code moved; update the mutant");
			}
			sources.put(edit.file(), matcher.replaceAll(Matcher.quoteReplacement(edit.replace())));
		}
		List<Path> written = new ArrayList<>();
		for (Map.Entry<String, String> source : sources.entrySet()) {
			Path file = into.resolve(source.getKey());
			Files.createDirectories(file.getParent());
			Files.writeString(file, source.getValue(), StandardCharsets.UTF_8);
			written.add(file);
		}
		return written;
	}

	/** {@code text} with any whitespace around its line breaks. */
	private static Pattern pattern(String text) {
		List<String> lines = text.strip().lines().map((line) -> Pattern.quote(line.strip())).toList();
		return Pattern.compile(String.join("\\s*\\n\\s*", lines));
	}

	private static void compile(List<Path> sources, Path classes) {
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		if (compiler == null) {
			throw new IllegalStateException("Mutants are compiled with the JDK's compiler; this is a JRE");
		}
		List<String> arguments = new ArrayList<>(List.of("--release", "17", "-proc:none", "-nowarn", "-encoding",
				"UTF-8", "-d", classes.toString(), "-cp", classPath()));
		sources.forEach((source) -> arguments.add(source.toString()));
		ByteArrayOutputStream errors = new ByteArrayOutputStream();
		int status = compiler.run(null, null, errors, arguments.toArray(String[]::new));
		if (status != 0) {
			throw new IllegalStateException(
					"The mutant did not compile (status " + status + "):\n" + errors.toString(StandardCharsets.UTF_8));
		}
	}

	/**
	 * Everything on the test class path, the edited classes first, in a loader of its own
	 * (not delegating to the test's), so that nothing of the unedited code is shared.
	 */
	private static URLClassLoader loader(Path classes) throws MalformedURLException {
		List<URL> urls = new ArrayList<>();
		urls.add(classes.toUri().toURL());
		for (String entry : classPath().split(File.pathSeparator)) {
			if (!entry.isBlank()) {
				urls.add(Path.of(entry).toUri().toURL());
			}
		}
		return new URLClassLoader("mutant", urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
	}

	/** The test class path (surefire's, not its booter's manifest-only jar). */
	private static String classPath() {
		return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
	}

	/**
	 * {@code file} (relative to {@code io/github/distlock}) in the module that has it.
	 */
	private static Path source(String file) {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			for (Path sources : SOURCES) {
				if (Files.isRegularFile(dir.resolve(sources).resolve(file))) {
					return dir.resolve(sources).resolve(file);
				}
			}
		}
		throw new IllegalStateException("No " + file + " in " + SOURCES + " above " + Path.of("").toAbsolutePath());
	}

	private static Method accessor(Object record, String name) throws NoSuchMethodException {
		Method method = record.getClass().getDeclaredMethod(name);
		method.setAccessible(true);
		return method;
	}

	private static String read(Path file) {
		try {
			return Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void deleteQuietly(Path dir) {
		try (var paths = Files.walk(dir)) {
			paths.sorted(java.util.Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// A temporary directory: left for the system to remove.
		}
	}

	/**
	 * What the simulation found with a mutant.
	 *
	 * @param mutant the mutant
	 * @param seed the first failing seed, or 0 if none failed
	 * @param violation the first violation it reported
	 * @param millis how long the search took, compilation included
	 * @param failingWithout seeds that failed with the mutant and also without it
	 */
	record Found(Mutant mutant, long seed, String violation, long millis, List<Long> failingWithout) {

	}

}

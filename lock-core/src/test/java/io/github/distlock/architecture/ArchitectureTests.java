package io.github.distlock.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import io.github.distlock.EnableDistributedLock;
import io.github.distlock.LockLostEvent;
import io.github.distlock.LockService;
import io.github.distlock.core.EngineRuntime;
import io.github.distlock.core.HeldLockInfo;
import io.github.distlock.core.LockEngine;
import io.github.distlock.core.LockInspection;
import io.github.distlock.core.TaskPool;
import io.github.distlock.observation.LockMetrics;
import io.github.distlock.redis.RedisLockService;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Holds the packages of {@code lock-core} to one direction, so that an import that runs
 * back up fails the build instead of waiting for a review; the first step of splitting
 * {@code lock-core} into modules along these arrows (issue 26). The layers, from the
 * bottom (each may use only those below it that its rule names; the same table is in
 * {@code docs/architecture.md}):
 *
 * <pre>
 * Support        .support                          (nothing)
 * API            the root package                  Support
 * Runtime        .core: EngineRuntime, TaskPool    Support
 *                and their JVM implementation
 * Store          .store: the SPI, in-memory store  API, Support
 * Observation    .observation                      API, Support
 * Engine         .core                             API, Support, Runtime, Store, Observation
 * Redis store    .redis                            API, Support, Runtime, Store
 * Redis service  .redis.RedisLockService           the above: engine + Redis store
 * Spring         .interceptor, .web                API, Support, Observation
 * Operations     .actuate, LockMetrics             API, Support, Engine (LockInspection only)
 * Boot wiring    .autoconfigure,                   everything
 *                EnableDistributedLock
 * </pre>
 *
 * A layer is a set of classes, not always a package: a package-level rule cannot say
 * where five public types belong that live in a package of another layer and cannot move
 * without breaking their users:
 * <ul>
 * <li>{@link EnableDistributedLock} sits in the root package for users, but imports the
 * Boot-conditioned interception configuration through its selector in
 * {@code .autoconfigure}, which names the annotation back (as {@code @EnableCaching} and
 * its {@code CachingConfigurationSelector} do, side by side in one Spring package): it is
 * Boot wiring, and counted in the {@code autoconfigure} slice.</li>
 * <li>{@link LockMetrics} binds meters on {@link LockInspection}, which the engine
 * implements, while the engine uses the rest of {@code .observation}: it is an operator's
 * view like {@code .actuate}, and a slice of its own.</li>
 * <li>{@link RedisLockService} is the engine over the Redis store, a composition above
 * both; the rest of {@code .redis} knows only the store SPI and the engine's
 * runtime.</li>
 * <li>{@link EngineRuntime} and {@link TaskPool} are the platform under the engine
 * (clock, parking, threads), which the quorum store runs on too.</li>
 * </ul>
 * The module split is to make these split packages modules of their own (the annotation
 * and {@link LockLostEvent} going with Spring, the runtime with the engine). Until then
 * the Spring-free layers may use Spring only where {@link #SPRING_IN_SPRING_FREE_LAYERS}
 * records it, with the reason.
 * <p>
 * {@code lock-core}'s tests run in the auto-configuration modules, so only the classes of
 * {@code lock-core}'s own jar (or classes directory) are imported here.
 */
class ArchitectureTests {

	private static final String ROOT = "io.github.distlock";

	private static final String SUPPORT = "Support";

	private static final String API = "API";

	private static final String RUNTIME = "Runtime";

	private static final String STORE = "Store";

	private static final String OBSERVATION = "Observation";

	private static final String ENGINE = "Engine";

	private static final String REDIS_STORE = "Redis store";

	private static final String REDIS_SERVICE = "Redis service";

	private static final String SPRING = "Spring";

	private static final String OPERATIONS = "Operations";

	private static final String BOOT = "Boot wiring";

	/** The hard limit of CONTRIBUTING.md for a main class. */
	private static final int MAX_LINES = 350;

	/** The platform under the engine: public types and their package-private JVM side. */
	private static final Set<String> RUNTIME_CLASSES = Set.of(EngineRuntime.class.getName(), TaskPool.class.getName(),
			ROOT + ".core.SystemRuntime", ROOT + ".core.SystemTaskPool", ROOT + ".core.OwnerTokens");

	/**
	 * Every use of Spring by the classes that are to run without it, by class: anything
	 * else fails {@link #theSpringFreeLayersUseSpringOnlyWhereRecorded()}, and an entry
	 * no longer used fails {@link #everyRecordedUseOfSpringIsStillThere()}. The store
	 * SPI, the in-memory store, the runtime, the observations and the rest of the API and
	 * the engine use none.
	 */
	private static final Map<String, Set<String>> SPRING_IN_SPRING_FREE_LAYERS = Map.of(
			// Public API that users receive with @EventListener: an ApplicationEvent.
			// Goes to the Spring module once the engine reports losses through a
			// listener of its own.
			LockLostEvent.class.getName(), Set.of("org.springframework.context.ApplicationEvent"),
			// The engine's lifecycle is the application context's (started and stopped in
			// phase, destroyed with it) and its losses are published as LockLostEvents.
			LockEngine.class.getName(),
			Set.of("org.springframework.beans.factory.DisposableBean",
					"org.springframework.context.ApplicationEventPublisher",
					"org.springframework.context.ApplicationEventPublisherAware",
					"org.springframework.context.SmartLifecycle"),
			// Publishes them, on a thread of its own.
			ROOT + ".core.LockLostPublisher", Set.of("org.springframework.context.ApplicationEventPublisher"));

	private static final JavaClasses CLASSES = importLockCore();

	@Test
	void layersUseOnlyTheLayersBelowThem() {
		layeredArchitecture().consideringOnlyDependenciesInLayers()
			.layer(SUPPORT)
			.definedBy(resideInAPackage(ROOT + ".support.."))
			.layer(API)
			.definedBy(resideInAPackage(ROOT).and(not(named(EnableDistributedLock.class.getName()))))
			.layer(RUNTIME)
			.definedBy(named(RUNTIME_CLASSES))
			.layer(STORE)
			.definedBy(resideInAPackage(ROOT + ".store.."))
			.layer(OBSERVATION)
			.definedBy(resideInAPackage(ROOT + ".observation..").and(not(named(LockMetrics.class.getName()))))
			.layer(ENGINE)
			.definedBy(resideInAPackage(ROOT + ".core..").and(not(named(RUNTIME_CLASSES))))
			.layer(REDIS_STORE)
			.definedBy(resideInAPackage(ROOT + ".redis..").and(not(named(RedisLockService.class.getName()))))
			.layer(REDIS_SERVICE)
			.definedBy(named(RedisLockService.class.getName()))
			.layer(SPRING)
			.definedBy(resideInAnyPackage(ROOT + ".interceptor..", ROOT + ".web.."))
			.layer(OPERATIONS)
			.definedBy(resideInAPackage(ROOT + ".actuate..").or(named(LockMetrics.class.getName())))
			.layer(BOOT)
			.definedBy(resideInAPackage(ROOT + ".autoconfigure..").or(named(EnableDistributedLock.class.getName())))
			.whereLayer(SUPPORT)
			.mayNotAccessAnyLayer()
			.whereLayer(API)
			.mayOnlyAccessLayers(SUPPORT)
			.whereLayer(RUNTIME)
			.mayOnlyAccessLayers(SUPPORT)
			.whereLayer(STORE)
			.mayOnlyAccessLayers(API, SUPPORT)
			.whereLayer(OBSERVATION)
			.mayOnlyAccessLayers(API, SUPPORT)
			.whereLayer(ENGINE)
			.mayOnlyAccessLayers(API, SUPPORT, RUNTIME, STORE, OBSERVATION)
			.whereLayer(REDIS_STORE)
			.mayOnlyAccessLayers(API, SUPPORT, RUNTIME, STORE)
			.whereLayer(REDIS_SERVICE)
			.mayOnlyAccessLayers(API, SUPPORT, RUNTIME, STORE, OBSERVATION, ENGINE, REDIS_STORE)
			.whereLayer(SPRING)
			.mayOnlyAccessLayers(API, SUPPORT, OBSERVATION)
			.whereLayer(OPERATIONS)
			.mayOnlyAccessLayers(API, SUPPORT, ENGINE)
			.whereLayer(BOOT)
			.mayOnlyAccessLayers(SUPPORT, API, RUNTIME, STORE, OBSERVATION, ENGINE, REDIS_STORE, REDIS_SERVICE, SPRING,
					OPERATIONS)
			.check(CLASSES);
	}

	@Test
	void packagesFormNoCycle() {
		slices().assignedFrom(new PackageSlices()).should().beFreeOfCycles().check(CLASSES);
	}

	@Test
	void operatorsSeeTheEngineOnlyThroughLockInspection() {
		noClasses().that(resideInAPackage(ROOT + ".actuate..").or(named(LockMetrics.class.getName())))
			.should()
			.dependOnClassesThat(resideInAPackage(ROOT + ".core..")
				.and(not(named(Set.of(LockInspection.class.getName(), HeldLockInfo.class.getName())))))
			.because("the endpoint, the health check and the meters work on any LockInspection")
			.check(CLASSES);
	}

	@Test
	void theSpringFreeLayersUseSpringOnlyWhereRecorded() {
		classes().that(springFreeLayers())
			.should(useSpringOnlyAsRecorded())
			.because("the engine, the store SPI and the API are to run without Spring (issue 26)")
			.check(CLASSES);
	}

	@Test
	void everyRecordedUseOfSpringIsStillThere() {
		SPRING_IN_SPRING_FREE_LAYERS.forEach((origin, targets) -> {
			JavaClass type = CLASSES.get(origin);
			assertThat(type.getDirectDependenciesFromSelf())
				.extracting((dependency) -> topLevel(dependency.getTargetClass()))
				.as("Spring types %s still uses (else remove them from SPRING_IN_SPRING_FREE_LAYERS)", origin)
				.containsAll(targets);
		});
	}

	@Test
	void onlyTheRedisStoresAndTheirWiringUseARedisClient() {
		noClasses()
			.that(springFreeLayers()
				.or(resideInAnyPackage(ROOT + ".interceptor..", ROOT + ".web..", ROOT + ".actuate..")))
			.should()
			.dependOnClassesThat(resideInAnyPackage("io.lettuce..", "org.springframework.data.."))
			.check(CLASSES);
	}

	@Test
	void everyClassNamedHereExists() {
		assertThat(RUNTIME_CLASSES).allSatisfy((name) -> assertThat(CLASSES.contain(name)).as(name).isTrue());
		assertThat(SPRING_IN_SPRING_FREE_LAYERS.keySet())
			.allSatisfy((name) -> assertThat(CLASSES.contain(name)).as(name).isTrue());
	}

	@Test
	void noMainClassIsLongerThan350Lines() throws IOException {
		Path sources = lockCoreSources();
		List<String> tooLong = new ArrayList<>();
		try (Stream<Path> files = Files.walk(sources)) {
			for (Path file : (Iterable<Path>) files.filter((path) -> path.toString().endsWith(".java"))::iterator) {
				int lines = Files.readAllLines(file).size();
				if (lines > MAX_LINES) {
					tooLong.add(sources.relativize(file) + " (" + lines + " lines)");
				}
			}
		}
		assertThat(tooLong).as("main classes over %d lines: split them by job (CONTRIBUTING.md)", MAX_LINES).isEmpty();
	}

	/**
	 * The layers that are to make the Spring-free core: support, API, runtime, store,
	 * observation and engine, but {@link EnableDistributedLock}.
	 */
	private static DescribedPredicate<JavaClass> springFreeLayers() {
		return resideInAnyPackage(ROOT, ROOT + ".support..", ROOT + ".store..", ROOT + ".observation..",
				ROOT + ".core..")
			.and(not(named(EnableDistributedLock.class.getName())))
			.as("classes of the Spring-free layers");
	}

	private static ArchCondition<JavaClass> useSpringOnlyAsRecorded() {
		return new ArchCondition<>("use org.springframework only as SPRING_IN_SPRING_FREE_LAYERS records") {

			@Override
			public void check(JavaClass type, ConditionEvents events) {
				Set<String> allowed = SPRING_IN_SPRING_FREE_LAYERS.getOrDefault(topLevel(type), Set.of());
				for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
					String target = topLevel(dependency.getTargetClass());
					if (target.startsWith("org.springframework.") && !allowed.contains(target)) {
						events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
					}
				}
			}

		};
	}

	private static DescribedPredicate<JavaClass> named(String name) {
		return named(Set.of(name));
	}

	/** Classes by name, nested ones and arrays with their class. */
	private static DescribedPredicate<JavaClass> named(Set<String> names) {
		return DescribedPredicate.describe("named " + names, (type) -> names.contains(topLevel(type)));
	}

	private static <T> DescribedPredicate<T> not(DescribedPredicate<T> predicate) {
		return DescribedPredicate.not(predicate);
	}

	/** The name of a class or of the class it is nested in; of the element for arrays. */
	private static String topLevel(JavaClass type) {
		String name = type.getBaseComponentType().getName();
		int nested = name.indexOf('$');
		return (nested < 0) ? name : name.substring(0, nested);
	}

	/**
	 * The classes of lock-core's main source set: its jar in a reactor build, its classes
	 * directory in an IDE.
	 */
	private static JavaClasses importLockCore() {
		try {
			Path location = Path.of(LockService.class.getProtectionDomain().getCodeSource().getLocation().toURI());
			ClassFileImporter importer = new ClassFileImporter();
			if (Files.isDirectory(location)) {
				return importer.importPath(location);
			}
			try (JarFile jar = new JarFile(location.toFile())) {
				return importer.importJar(jar);
			}
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** lock-core/src/main/java, found from the module the tests run in. */
	private static Path lockCoreSources() {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			Path sources = dir.resolve("lock-core/src/main/java");
			if (Files.isDirectory(sources)) {
				return sources;
			}
		}
		throw new IllegalStateException("lock-core/src/main/java not found above " + Path.of("").toAbsolutePath());
	}

	/**
	 * One slice per package under {@code io.github.distlock} (the root package is
	 * {@code api}), but for the two classes that belong to another layer than their
	 * package's: {@link EnableDistributedLock} goes with its selector's
	 * {@code autoconfigure}, {@link LockMetrics} is a slice of its own.
	 */
	private static final class PackageSlices implements SliceAssignment {

		@Override
		public SliceIdentifier getIdentifierOf(JavaClass type) {
			String name = topLevel(type);
			if (!type.getPackageName().startsWith(ROOT)) {
				return SliceIdentifier.ignore();
			}
			if (name.equals(EnableDistributedLock.class.getName())) {
				return SliceIdentifier.of("autoconfigure");
			}
			if (name.equals(LockMetrics.class.getName())) {
				return SliceIdentifier.of("observation.LockMetrics");
			}
			String rest = type.getPackageName().substring(ROOT.length());
			return SliceIdentifier.of(rest.isEmpty() ? "api" : rest.substring(1).split("\\.")[0]);
		}

		@Override
		public String getDescription() {
			return "packages of io.github.distlock (EnableDistributedLock with autoconfigure, LockMetrics apart)";
		}

	}

}

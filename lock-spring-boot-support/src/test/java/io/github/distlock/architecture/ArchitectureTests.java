package io.github.distlock.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.JarFile;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import io.github.distlock.LockService;
import io.github.distlock.autoconfigure.DistributedLockConfiguration;
import io.github.distlock.autoconfigure.DistributedLockProperties;
import io.github.distlock.autoconfigure.LineUnderTest;
import io.github.distlock.interceptor.DistributedLockInterceptor;
import io.github.distlock.redis.RedisLockStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Holds the modules and packages of distlock to one direction, so that an import that
 * runs back up fails the build instead of waiting for a review (issue 26). The modules,
 * from the bottom: {@code lock-core} (no Spring at all), {@code lock-redis} and
 * {@code lock-spring} (each on the core only), {@code lock-spring-boot-support} (on all
 * three); {@link Module} checks the jars. The layers within and across them (each may use
 * only those its rule names; the same table is in {@code docs/architecture.md}):
 *
 * <pre>
 * Support        .support                          (nothing)
 * API            the root package                  Support
 * Runtime        .runtime                          Support
 * Store          .store: the SPI, in-memory store  API, Support
 * Observation    .observation                      API, Support
 * Engine         .core                             API, Support, Runtime, Store, Observation
 * Redis store    .redis                            API, Support, Runtime, Store
 * Spring         .interceptor, .web, .context      API, Support, Observation, Engine
 * Operations     .actuate, .metrics                API, Support
 * Boot wiring    .autoconfigure, .config,          everything
 *                .boot4, .boot3 (each Boot line's)
 * </pre>
 *
 * A layer is a package (with its sub-packages), without exceptions: the Redis store knows
 * the store SPI and the runtime (the platform under the engine: clock, parking, threads,
 * which the quorum store runs on too), never the engine; the Boot wiring composes the
 * engine over it, as over the in-memory and quorum stores.
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

	private static final String SPRING = "Spring";

	private static final String OPERATIONS = "Operations";

	private static final String BOOT = "Boot wiring";

	private static final Map<String, Module> MODULE_OF = new HashMap<>();

	private static final JavaClasses CLASSES = importModules();

	@Test
	void layersUseOnlyTheLayersBelowThem() {
		layers().check(CLASSES);
	}

	@Test
	void modulesUseOnlyTheModulesBelowThem() {
		classes().should(useOnlyModulesBelow()).check(CLASSES);
	}

	@Test
	void aWrongWayImportFailsTheRules() {
		JavaClasses wrongWay = new ClassFileImporter().importClasses(WrongWayImportProbe.type(),
				DistributedLockProperties.class);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> layers().withOptionalLayers(true).check(wrongWay))
			.withMessageContaining("io.github.distlock.core.WrongWayImport")
			.withMessageContaining(DistributedLockProperties.class.getName())
			.satisfies((failure) -> System.out
				.println("[architecture] what a wrong-way import gets:\n" + failure.getMessage()));
	}

	@Test
	void packagesFormNoCycle() {
		slices().assignedFrom(new PackageSlices()).should().beFreeOfCycles().check(CLASSES);
	}

	@Test
	void theCoreUsesNoSpringAndTheMiddleModulesNoBoot() {
		classes().should(useNoForbiddenFramework())
			.because("lock-core runs without Spring; lock-redis and lock-spring run without Spring Boot")
			.check(CLASSES);
	}

	@Test
	void onlyTheRedisStoresAndTheirWiringUseARedisClient() {
		noClasses().that(inModule(Module.CORE).or(inModule(Module.SPRING)))
			.should()
			.dependOnClassesThat(resideInAnyPackage("io.lettuce..", "org.springframework.data.."))
			.check(CLASSES);
	}

	@Test
	void noPackageSpansTwoOfTheseModules() {
		Map<String, Set<Module>> modulesOfPackage = new TreeMap<>();
		MODULE_OF.forEach((type, module) -> modulesOfPackage
			.computeIfAbsent(type.substring(0, type.lastIndexOf('.')), (name) -> EnumSet.noneOf(Module.class))
			.add(module));
		assertThat(modulesOfPackage).as("packages in more than one jar")
			.allSatisfy((name, modules) -> assertThat(modules).as(name).hasSize(1));
	}

	@Test
	void everyJarNamesItsModule() throws IOException {
		List<Module> jars = Arrays.stream(Module.values()).filter((module) -> jarOf(module.member) != null).toList();
		assumeFalse(jars.isEmpty(), "the modules' classes are directories here (an IDE's build): no manifest to read");
		for (Module module : jars) {
			try (JarFile jar = new JarFile(jarOf(module.member).toFile())) {
				assertThat(jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name")).as(module.artifact)
					.isEqualTo(module.moduleName);
			}
		}
	}

	private static @Nullable Path jarOf(Class<?> member) {
		Path path = codeSource(member);
		return Files.isDirectory(path) ? null : path;
	}

	private static Path codeSource(Class<?> member) {
		try {
			return Path.of(member.getProtectionDomain().getCodeSource().getLocation().toURI());
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Test
	void everyClassNamedHereExists() {
		assertThat(Set.of(ROOT + ".runtime.EngineRuntime", ROOT + ".runtime.TaskPool"))
			.allSatisfy((name) -> assertThat(CLASSES.contain(name)).as(name).isTrue());
		assertThat(MODULE_OF.values()).containsAll(Set.of(Module.values()));
	}

	private static LayeredArchitecture layers() {
		return layeredArchitecture().consideringOnlyDependenciesInLayers()
			.layer(SUPPORT)
			.definedBy(resideInAPackage(ROOT + ".support.."))
			.layer(API)
			.definedBy(resideInAPackage(ROOT))
			.layer(RUNTIME)
			.definedBy(resideInAPackage(ROOT + ".runtime.."))
			.layer(STORE)
			.definedBy(resideInAPackage(ROOT + ".store.."))
			.layer(OBSERVATION)
			.definedBy(resideInAPackage(ROOT + ".observation.."))
			.layer(ENGINE)
			.definedBy(resideInAPackage(ROOT + ".core.."))
			.layer(REDIS_STORE)
			.definedBy(resideInAPackage(ROOT + ".redis.."))
			.layer(SPRING)
			.definedBy(resideInAnyPackage(ROOT + ".interceptor..", ROOT + ".web..", ROOT + ".context.."))
			.layer(OPERATIONS)
			.definedBy(resideInAnyPackage(ROOT + ".actuate..", ROOT + ".metrics.."))
			.layer(BOOT)
			.definedBy(resideInAnyPackage(ROOT + ".autoconfigure..", ROOT + ".config..", ROOT + ".boot4..",
					ROOT + ".boot3.."))
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
			.whereLayer(SPRING)
			.mayOnlyAccessLayers(API, SUPPORT, OBSERVATION, ENGINE)
			.whereLayer(OPERATIONS)
			.mayOnlyAccessLayers(API, SUPPORT)
			.whereLayer(BOOT)
			.mayOnlyAccessLayers(SUPPORT, API, RUNTIME, STORE, OBSERVATION, ENGINE, REDIS_STORE, SPRING, OPERATIONS);
	}

	private static ArchCondition<JavaClass> useOnlyModulesBelow() {
		return new ArchCondition<>("use only classes of their own module or of the modules below it") {

			@Override
			public void check(JavaClass type, ConditionEvents events) {
				Module origin = MODULE_OF.get(type.getName());
				for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
					Module target = MODULE_OF.get(dependency.getTargetClass().getBaseComponentType().getName());
					if (origin != null && target != null && !origin.mayUse(target)) {
						events.add(SimpleConditionEvent.violated(dependency,
								origin.artifact + " uses " + target.artifact + ": " + dependency.getDescription()));
					}
				}
			}

		};
	}

	private static ArchCondition<JavaClass> useNoForbiddenFramework() {
		return new ArchCondition<>("use Spring and Spring Boot only where their module allows") {

			@Override
			public void check(JavaClass type, ConditionEvents events) {
				Module module = MODULE_OF.get(type.getName());
				for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
					String target = topLevel(dependency.getTargetClass());
					boolean spring = target.startsWith("org.springframework.");
					boolean boot = target.startsWith("org.springframework.boot.");
					boolean forbidden = switch (module) {
						case CORE -> spring;
						case REDIS -> boot;
						case SPRING -> boot;
						case BOOT_SUPPORT, BOOT_LINE -> false;
					};
					if (forbidden) {
						events.add(SimpleConditionEvent.violated(dependency,
								module.artifact + ": " + dependency.getDescription()));
					}
				}
			}

		};
	}

	private static DescribedPredicate<JavaClass> inModule(Module module) {
		return DescribedPredicate.describe("in " + module.artifact, (type) -> MODULE_OF.get(type.getName()) == module);
	}

	/** The name of a class or of the class it is nested in; of the element for arrays. */
	private static String topLevel(JavaClass type) {
		String name = type.getBaseComponentType().getName();
		int nested = name.indexOf('$');
		return (nested < 0) ? name : name.substring(0, nested);
	}

	/**
	 * The main classes of the five modules (the Boot line's auto-configuration is that of
	 * the module running these tests): their jars in a reactor build, their classes
	 * directories in an IDE and for the running module.
	 */
	private static JavaClasses importModules() {
		List<Location> locations = new ArrayList<>();
		for (Module module : Module.values()) {
			Location location = location(module.member);
			locations.add(location);
			for (JavaClass type : new ClassFileImporter().importLocations(List.of(location))) {
				MODULE_OF.put(type.getName(), module);
			}
		}
		return new ClassFileImporter().importLocations(locations);
	}

	private static Location location(Class<?> member) {
		Path jar = jarOf(member);
		if (jar == null) {
			return Location.of(codeSource(member));
		}
		try (JarFile file = new JarFile(jar.toFile())) {
			return Location.of(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The modules of the library, each with a class it holds and what it may use. */
	private enum Module {

		CORE("lock-core", "io.github.distlock", LockService.class),

		REDIS("lock-redis", "io.github.distlock.redis", RedisLockStore.class, CORE),

		SPRING("lock-spring", "io.github.distlock.spring", DistributedLockInterceptor.class, CORE),

		BOOT_SUPPORT("lock-spring-boot-support", "io.github.distlock.boot", DistributedLockConfiguration.class, CORE,
				REDIS, SPRING),

		/** The auto-configuration module of the Boot line these tests run on. */
		BOOT_LINE(LineUnderTest.AUTOCONFIGURE_ARTIFACT, LineUnderTest.AUTOCONFIGURE_MODULE_NAME, LineUnderTest.LOCKS,
				CORE, REDIS, SPRING, BOOT_SUPPORT);

		private final String artifact;

		/** Its jar's {@code Automatic-Module-Name}. */
		private final String moduleName;

		private final Class<?> member;

		private final Set<Module> below;

		Module(String artifact, String moduleName, Class<?> member, Module... below) {
			this.artifact = artifact;
			this.moduleName = moduleName;
			this.member = member;
			this.below = Set.of(below);
		}

		boolean mayUse(Module other) {
			return other == this || this.below.contains(other);
		}

	}

	/**
	 * One slice per package under {@code io.github.distlock} (the root package is
	 * {@code api}).
	 */
	private static final class PackageSlices implements SliceAssignment {

		@Override
		public SliceIdentifier getIdentifierOf(JavaClass type) {
			String name = topLevel(type);
			if (!type.getPackageName().startsWith(ROOT)) {
				return SliceIdentifier.ignore();
			}
			String rest = type.getPackageName().substring(ROOT.length());
			return SliceIdentifier.of(rest.isEmpty() ? "api" : rest.substring(1).split("\\.")[0]);
		}

		@Override
		public String getDescription() {
			return "packages of io.github.distlock";
		}

	}

}

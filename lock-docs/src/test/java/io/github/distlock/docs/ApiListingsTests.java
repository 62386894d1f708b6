package io.github.distlock.docs;

import java.lang.reflect.AnnotatedArrayType;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.TypeVariable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.github.distlock.docs.Markdown.CodeBlock;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API page lists the public API's signatures: a Java block after
 * {@code <!-- api: io.github.distlock.LockService -->} has one line per public method and
 * constructor of that type (annotation attributes with their defaults), in any order, as
 * reflection sees them; other lines (the type's declaration, braces, comments) are free.
 * So a method added, removed or changed fails the build until the page says so.
 */
class ApiListingsTests {

	@Test
	void everyListingMatchesItsType() throws ClassNotFoundException {
		List<String> drifted = new ArrayList<>();
		Set<String> listed = new TreeSet<>();
		for (Path page : Markdown.pages()) {
			for (CodeBlock block : Markdown.codeBlocks(page)) {
				if (block.marker() == null || !block.marker().kind().equals("api")) {
					continue;
				}
				Class<?> type = Class.forName(block.marker().target());
				listed.add(type.getName());
				Set<String> documented = documented(block.content());
				Set<String> actual = signatures(type);
				if (!documented.equals(actual)) {
					Set<String> missing = new TreeSet<>(actual);
					missing.removeAll(documented);
					Set<String> extra = new TreeSet<>(documented);
					extra.removeAll(actual);
					drifted.add(block.where() + " (" + type.getSimpleName() + "): missing " + missing
							+ ", not in the API " + extra);
				}
			}
		}
		assertThat(drifted).as("API listings that differ from the API").isEmpty();
		assertThat(listed).as("types with a listing")
			.contains("io.github.distlock.LockService", "io.github.distlock.LockHandle",
					"io.github.distlock.LockContext", "io.github.distlock.LockNotAcquiredException",
					"io.github.distlock.LockLostException", "io.github.distlock.DistributedLock");
	}

	/** The lines of a listing that declare a member, without {@code ;} and comments. */
	static Set<String> documented(String listing) {
		Set<String> members = new TreeSet<>();
		for (String line : listing.lines().toList()) {
			String member = line.replaceAll("//.*$", "").strip();
			if (member.endsWith(";") && member.contains("(")) {
				members.add(member.substring(0, member.length() - 1).strip().replaceAll("\\s+", " "));
			}
		}
		return members;
	}

	static Set<String> signatures(Class<?> type) {
		Set<String> signatures = new TreeSet<>();
		for (Method method : type.getDeclaredMethods()) {
			if (Modifier.isPublic(method.getModifiers()) && !method.isSynthetic() && !method.isBridge()) {
				signatures.add(signature(method));
			}
		}
		if (!type.isInterface()) {
			for (Constructor<?> constructor : type.getConstructors()) {
				signatures.add(type.getSimpleName() + parameters(constructor));
			}
		}
		return signatures;
	}

	private static String signature(Method method) {
		StringBuilder text = new StringBuilder();
		if (Modifier.isStatic(method.getModifiers())) {
			text.append("static ");
		}
		TypeVariable<Method>[] typeParameters = method.getTypeParameters();
		if (typeParameters.length > 0) {
			text.append(Arrays.stream(typeParameters)
				.map(TypeVariable::getName)
				.collect(Collectors.joining(", ", "<", "> ")));
		}
		text.append(type(method.getAnnotatedReturnType()))
			.append(' ')
			.append(method.getName())
			.append(parameters(method));
		Object defaultValue = method.getDefaultValue();
		if (defaultValue != null) {
			text.append(" default ").append(literal(defaultValue));
		}
		return text.toString();
	}

	private static String parameters(Executable executable) {
		Parameter[] parameters = executable.getParameters();
		AnnotatedType[] types = executable.getAnnotatedParameterTypes();
		List<String> declared = new ArrayList<>();
		for (int i = 0; i < parameters.length; i++) {
			declared.add(type(types[i]) + " " + parameters[i].getName());
		}
		return declared.stream().collect(Collectors.joining(", ", "(", ")"));
	}

	private static String type(AnnotatedType type) {
		String nullable = type.isAnnotationPresent(Nullable.class) ? "@Nullable " : "";
		if (type instanceof AnnotatedParameterizedType parameterized) {
			String raw = ((Class<?>) ((ParameterizedType) parameterized.getType()).getRawType()).getSimpleName();
			return nullable + raw
					+ Arrays.stream(parameterized.getAnnotatedActualTypeArguments())
						.map(ApiListingsTests::type)
						.collect(Collectors.joining(", ", "<", ">"));
		}
		if (type instanceof AnnotatedArrayType array) {
			return type(array.getAnnotatedGenericComponentType()) + "[]";
		}
		if (type.getType() instanceof Class<?> plain) {
			return nullable + plain.getSimpleName();
		}
		return nullable + type.getType().getTypeName();
	}

	private static String literal(Object value) {
		if (value instanceof String text) {
			return "\"" + text + "\"";
		}
		if (value instanceof Enum<?> constant) {
			return constant.getDeclaringClass().getSimpleName() + "." + constant.name();
		}
		return String.valueOf(value);
	}

}

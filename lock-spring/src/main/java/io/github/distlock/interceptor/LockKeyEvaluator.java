package io.github.distlock.interceptor;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.Assign;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.ConstructorReference;
import org.springframework.expression.spel.ast.FunctionReference;
import org.springframework.expression.spel.ast.MethodReference;
import org.springframework.expression.spel.ast.OpDec;
import org.springframework.expression.spel.ast.OpInc;
import org.springframework.expression.spel.ast.TypeReference;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.SimpleEvaluationContext;
import org.springframework.util.ObjectUtils;

/**
 * The one place where key expressions are parsed, checked and evaluated.
 * <p>
 * Keys are data-only SpEL: parsed once at startup, where type references, constructors,
 * bean references, method and function calls, assignments and unknown variables are
 * rejected; evaluated in a read-only {@link SimpleEvaluationContext} whose only variables
 * are the arguments. Argument values are data, never parsed as expressions.
 */
public class LockKeyEvaluator {

	/** Longer key expressions are rejected: a lock key is an id, not a program. */
	public static final int MAX_EXPRESSION_LENGTH = 500;

	private final SpelExpressionParser parser = new SpelExpressionParser();

	/**
	 * Parses and checks a key expression.
	 * @param expression the {@code key} attribute
	 * @param parameterNames the parameter names the method exposes
	 * @return the parsed expression
	 * @throws IllegalArgumentException with the reason, if the expression is not allowed
	 */
	public Expression parse(String expression, String[] parameterNames) {
		if (expression.length() > MAX_EXPRESSION_LENGTH) {
			throw new IllegalArgumentException("it is " + expression.length() + " characters long, at most "
					+ MAX_EXPRESSION_LENGTH + " are allowed");
		}
		SpelExpression parsed;
		try {
			parsed = this.parser.parseRaw(expression);
		}
		catch (ParseException ex) {
			throw new IllegalArgumentException("it is not a valid SpEL expression: " + ex.getMessage(), ex);
		}
		check(parsed.getAST(), variables(parameterNames));
		return parsed;
	}

	/**
	 * Evaluates the key of an invocation: one key, or one per distinct element when the
	 * expression yields a {@link Collection} or an array (a multi-key lock, e.g.
	 * {@code {#from, #to}} or {@code #order.skus}).
	 * @param operation the lock operation
	 * @param arguments the invocation's arguments
	 * @return the keys as text, in the order the value lists them, duplicates once
	 * @throws IllegalArgumentException if the key, or an element of it, is {@code null}
	 * or blank, or the collection is empty: no lock, no call
	 */
	public List<String> evaluate(LockOperation operation, @Nullable Object[] arguments) {
		Expression key = operation.key();
		if (key == null) {
			throw new IllegalStateException("No key expression on " + operation.describeMethod());
		}
		Object value = key.getValue(context(operation.parameterNames(), arguments));
		List<?> elements = elements(value);
		if (elements == null) {
			return List.of(text(value, operation, "evaluated to"));
		}
		if (elements.isEmpty()) {
			throw new IllegalArgumentException(
					"Lock key '" + key.getExpressionString() + "' of " + operation.describeMethod()
							+ " evaluated to an empty collection; the method is not invoked" + " without its locks");
		}
		Set<String> keys = new LinkedHashSet<>();
		for (int i = 0; i < elements.size(); i++) {
			keys.add(text(elements.get(i), operation, "has, at index " + i + ","));
		}
		return List.copyOf(keys);
	}

	private static @Nullable List<?> elements(@Nullable Object value) {
		if (value instanceof Collection<?> collection) {
			return new ArrayList<>(collection);
		}
		if (value != null && value.getClass().isArray()) {
			List<Object> elements = new ArrayList<>();
			for (int i = 0; i < Array.getLength(value); i++) {
				elements.add(Array.get(value, i));
			}
			return elements;
		}
		return null;
	}

	private static String text(@Nullable Object value, LockOperation operation, String what) {
		String text = (value instanceof String string) ? string
				: (value != null) ? ObjectUtils.nullSafeToString(value) : null;
		if (text == null || text.isBlank()) {
			Expression key = operation.key();
			throw new IllegalArgumentException("Lock key '" + ((key != null) ? key.getExpressionString() : "") + "' of "
					+ operation.describeMethod() + " " + what + " " + ((text == null) ? "null" : "a blank value")
					+ "; the method is not invoked without its lock");
		}
		return text;
	}

	private static EvaluationContext context(String[] parameterNames, @Nullable Object[] arguments) {
		SimpleEvaluationContext context = SimpleEvaluationContext.forReadOnlyDataBinding().build();
		for (int i = 0; i < arguments.length; i++) {
			context.setVariable("p" + i, arguments[i]);
			context.setVariable("a" + i, arguments[i]);
			if (i < parameterNames.length) {
				context.setVariable(parameterNames[i], arguments[i]);
			}
		}
		return context;
	}

	private static Set<String> variables(String[] parameterNames) {
		Set<String> names = new HashSet<>();
		for (int i = 0; i < parameterNames.length; i++) {
			names.add("p" + i);
			names.add("a" + i);
			names.add(parameterNames[i]);
		}
		names.add("root");
		names.add("this");
		return names;
	}

	private static void check(SpelNode node, Set<String> variables) {
		String forbidden = forbidden(node);
		if (forbidden != null) {
			throw new IllegalArgumentException(forbidden + " '" + node.toStringAST()
					+ "' is not allowed in a lock key; use arguments and their properties only, e.g. #order.id");
		}
		if (node instanceof VariableReference) {
			String name = node.toStringAST().substring(1);
			if (!variables.contains(name)) {
				throw new IllegalArgumentException(
						"it names a parameter '" + name + "' that does not exist; available: "
								+ String.join(", ",
										variables.stream()
											.filter((v) -> !v.equals("root") && !v.equals("this"))
											.sorted()
											.toList()));
			}
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			check(node.getChild(i), variables);
		}
	}

	private static @Nullable String forbidden(SpelNode node) {
		if (node instanceof TypeReference) {
			return "the type reference";
		}
		if (node instanceof ConstructorReference) {
			return "the constructor call";
		}
		if (node instanceof BeanReference) {
			return "the bean reference";
		}
		if (node instanceof MethodReference || node instanceof FunctionReference) {
			return "the method call";
		}
		if (node instanceof Assign || node instanceof OpInc || node instanceof OpDec) {
			return "the assignment";
		}
		return null;
	}

}

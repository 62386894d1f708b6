package io.github.distlock.autoconfigure;

import io.github.distlock.autoconfigure.DistributedLockProperties.Store;

import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The condition of {@link ConditionalOnLockStore}: binds {@code distributed-lock.store}
 * as the properties bean will (so {@code in-memory}, {@code IN_MEMORY} and
 * {@code inMemory} all name {@link Store#IN_MEMORY}). A value naming no store matches
 * nothing; binding the properties bean then fails with the property's name and the
 * accepted values.
 */
class OnLockStoreCondition extends SpringBootCondition {

	static final String PROPERTY = "distributed-lock.store";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Object value = metadata.getAnnotationAttributes(ConditionalOnLockStore.class.getName()).get("value");
		Store required = (value instanceof Store store) ? store : Store.valueOf(String.valueOf(value));
		ConditionMessage.Builder message = ConditionMessage.forCondition(ConditionalOnLockStore.class, required);
		Store configured;
		try {
			configured = Binder.get(context.getEnvironment()).bind(PROPERTY, Store.class).orElse(Store.REDIS);
		}
		catch (BindException ex) {
			return ConditionOutcome.noMatch(message.because("'" + PROPERTY + "' names no store"));
		}
		if (configured == required) {
			return ConditionOutcome.match(message.because("'" + PROPERTY + "' is " + configured));
		}
		return ConditionOutcome.noMatch(message.because("'" + PROPERTY + "' is " + configured));
	}

}

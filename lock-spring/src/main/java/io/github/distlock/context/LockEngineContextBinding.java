package io.github.distlock.context;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.distlock.core.LockEngine;
import io.github.distlock.core.ManagedLockService;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;
import org.springframework.context.SmartLifecycle;

/**
 * Binds every {@link LockEngine} bean of an application context to the context, which the
 * engine itself knows nothing of (it runs without Spring): the losses it finds are
 * published as {@link LockLostEvent}s (source: the engine), and the context's shutdown
 * {@linkplain LockEngine#destroy() shuts it down} in {@link #SHUTDOWN_PHASE}. The
 * engine's {@link LockEngine#close()} also runs when the context destroys the bean, for
 * contexts closed without stopping. The same for every other {@link ManagedLockService}
 * bean, such as the reactive lock service.
 * <p>
 * Auto-configured with every lock service; an application that builds its own context
 * without Boot registers it as a {@code static} bean.
 */
public class LockEngineContextBinding implements BeanPostProcessor, ApplicationEventPublisherAware, SmartLifecycle {

	/**
	 * Lifecycle phase in which an application context's shutdown releases the held locks:
	 * after the web server's graceful shutdown and the task executors (which finish the
	 * work holding locks), before the store's connection factories stop (phase 0), which
	 * would make the release impossible.
	 */
	public static final int SHUTDOWN_PHASE = SmartLifecycle.DEFAULT_PHASE - 8192;

	private final List<ManagedLockService> engines = new CopyOnWriteArrayList<>();

	private @Nullable ApplicationEventPublisher eventPublisher;

	private volatile boolean running;

	@Override
	public void setApplicationEventPublisher(ApplicationEventPublisher eventPublisher) {
		this.eventPublisher = eventPublisher;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof ManagedLockService engine && !this.engines.contains(engine)) {
			ApplicationEventPublisher publisher = this.eventPublisher;
			if (publisher != null) {
				engine.setLockLostListener((lost) -> publisher
					.publishEvent(new LockLostEvent(engine, lost.lockId(), lost.fencingToken(), lost.reason())));
			}
			this.engines.add(engine);
		}
		return bean;
	}

	/** Nothing to start: an engine runs from its creation (also when created lazily). */
	@Override
	public void start() {
		this.running = true;
	}

	/**
	 * Shuts every engine down (releases the held locks, ends the waits, stops renewal),
	 * while the stores can be reached; they are never restarted.
	 */
	@Override
	public void stop() {
		this.running = false;
		for (ManagedLockService engine : this.engines) {
			engine.destroy();
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Not stopped when the application context pauses (the TestContext framework pauses
	 * cached contexts, and a stopped engine is not restarted); a paused context runs no
	 * code that holds locks. New in Spring Framework 7: compiled against 6.2, where it
	 * overrides nothing, hence no {@code @Override}.
	 */
	public boolean isPauseable() {
		return false;
	}

	@Override
	public int getPhase() {
		return SHUTDOWN_PHASE;
	}

}

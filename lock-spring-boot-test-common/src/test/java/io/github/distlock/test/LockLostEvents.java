package io.github.distlock.test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.distlock.context.LockLostEvent;

import org.springframework.context.event.EventListener;

/**
 * The application's listener of lost locks: keeps the ids.
 */
class LockLostEvents {

	final List<String> lockIds = new CopyOnWriteArrayList<>();

	@EventListener
	void lost(LockLostEvent event) {
		this.lockIds.add(event.getLockId());
	}

}

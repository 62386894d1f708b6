package io.github.distlock.docs.shop;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.distlock.context.LockLostEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Listens for locks this instance lost.
 */
@Component
public class LockLossAlarm {

	private static final Logger log = LoggerFactory.getLogger(LockLossAlarm.class);

	private final List<String> lost = new CopyOnWriteArrayList<>();

	// tag::lock-lost[]
	@EventListener
	public void onLockLost(LockLostEvent event) {
		log.warn("Lost lock {} (fencing token {}): {}", event.getLockId(), event.getFencingToken(), event.getReason());
		this.lost.add(event.getLockId());
	}
	// end::lock-lost[]

	public List<String> lost() {
		return List.copyOf(this.lost);
	}

}

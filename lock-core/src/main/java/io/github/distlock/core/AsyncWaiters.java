package io.github.distlock.core;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.distlock.store.ReleaseListener;
import org.jspecify.annotations.Nullable;

/**
 * The acquisitions of the {@link ReactiveLockEngine} waiting for a lock, by key, woken by
 * the store's announcements: a release wakes every one waiting for that key (they race
 * for it, as other instances' waiters do), a grant with its fencing token makes its owner
 * the holder at once, and a grant without one wakes its owner to claim it. Nothing here
 * blocks: it runs on the store's I/O thread.
 */
final class AsyncWaiters implements ReleaseListener {

	private final ConcurrentHashMap<String, Set<AsyncAcquisition>> waiting = new ConcurrentHashMap<>();

	void add(AsyncAcquisition acquisition) {
		this.waiting.computeIfAbsent(acquisition.key, (key) -> ConcurrentHashMap.newKeySet()).add(acquisition);
	}

	void remove(AsyncAcquisition acquisition) {
		this.waiting.computeIfPresent(acquisition.key, (key, set) -> {
			set.remove(acquisition);
			return set.isEmpty() ? null : set;
		});
	}

	/** The acquisitions waiting now, for a shutdown. */
	Collection<AsyncAcquisition> all() {
		return this.waiting.values().stream().flatMap(Set::stream).toList();
	}

	@Override
	public void released(String key) {
		Set<AsyncAcquisition> acquisitions = this.waiting.get(key);
		if (acquisitions != null) {
			acquisitions.forEach(AsyncAcquisition::wake);
		}
	}

	@Override
	public void granted(String key, String owner) {
		AsyncAcquisition grantee = find(key, owner);
		if (grantee != null) {
			grantee.wake();
		}
	}

	@Override
	public void granted(String key, String owner, long fencingToken) {
		AsyncAcquisition grantee = find(key, owner);
		if (grantee != null) {
			grantee.granted(owner, fencingToken);
		}
	}

	private @Nullable AsyncAcquisition find(String key, String owner) {
		Set<AsyncAcquisition> acquisitions = this.waiting.get(key);
		if (acquisitions != null) {
			for (AsyncAcquisition acquisition : acquisitions) {
				if (acquisition.owner.equals(owner)) {
					return acquisition;
				}
			}
		}
		return null;
	}

}

package io.github.distlock.aspectj;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockContext;

/**
 * Woven at compile time, with locked methods a proxy can reach too: for proxy mode with
 * woven classes. Records whether each locked method ran with a lock handle.
 */
public class Shelf {

	private final List<String> seen = new CopyOnWriteArrayList<>();

	public List<String> seen() {
		return this.seen;
	}

	@DistributedLock(name = "shelf", key = "#sku")
	public void fill(String sku) {
		this.seen.add("fill " + sku + " handle=" + LockContext.current().isPresent());
	}

	public void restock(String sku) {
		fill(sku);
	}

}

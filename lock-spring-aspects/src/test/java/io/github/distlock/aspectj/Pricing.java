package io.github.distlock.aspectj;

import io.github.distlock.DistributedLock;

/**
 * Annotated on the interface only: AspectJ does not see it on the implementation.
 */
public interface Pricing {

	@DistributedLock(name = "price")
	void reprice();

	/** Woven, but its method carries no annotation of its own. */
	class Implementation implements Pricing {

		@Override
		public void reprice() {
		}

	}

}

package io.github.distlock.store;

/**
 * A {@link ReleaseListener} that passes every announcement on to another, as it came: a
 * test store overrides the announcements it holds back, drops or counts.
 */
public class ForwardingReleaseListener implements ReleaseListener {

	private final ReleaseListener delegate;

	public ForwardingReleaseListener(ReleaseListener delegate) {
		this.delegate = delegate;
	}

	@Override
	public void released(String key) {
		this.delegate.released(key);
	}

	@Override
	public void granted(String key, String owner) {
		this.delegate.granted(key, owner);
	}

	@Override
	public void granted(String key, String owner, long fencingToken) {
		this.delegate.granted(key, owner, fencingToken);
	}

}

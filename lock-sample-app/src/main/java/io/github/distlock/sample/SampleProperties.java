package io.github.distlock.sample;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of one shop instance.
 */
@ConfigurationProperties("sample")
public class SampleProperties {

	/**
	 * Name of this instance, shown by the state endpoint and the dashboard.
	 */
	private String instanceName = "instance";

	/**
	 * Pause between reading the stock and writing it back, in every buying mode. Widens
	 * the window in which unlocked buyers overwrite each other, as a slower database or a
	 * busier server would.
	 */
	private Duration raceWindow = Duration.ofMillis(10);

	/**
	 * Fixed lease of the locked buying path's lock, never renewed; when not set, the lock
	 * has the auto-renewed lease {@code distributed-lock.lease-time}. Read by
	 * {@code BuyService}'s annotation.
	 */
	private @Nullable Duration lockedLeaseTime;

	/**
	 * Fixed lease of the fenced buying path's lock, never renewed; when not set, the lock
	 * has the auto-renewed lease {@code distributed-lock.lease-time}. Read by
	 * {@code BuyService}'s annotation.
	 */
	private @Nullable Duration fencedLeaseTime;

	/**
	 * Base URLs of the other instances sharing this database, which races started from
	 * this instance's dashboard also send buyers to.
	 */
	private List<URI> peers = new ArrayList<>();

	/**
	 * Process id of the demo launcher that started this instance; the instance exits when
	 * that process ends.
	 */
	private @Nullable Long parentPid;

	public String getInstanceName() {
		return this.instanceName;
	}

	public void setInstanceName(String instanceName) {
		this.instanceName = instanceName;
	}

	public Duration getRaceWindow() {
		return this.raceWindow;
	}

	public void setRaceWindow(Duration raceWindow) {
		this.raceWindow = raceWindow;
	}

	public @Nullable Duration getLockedLeaseTime() {
		return this.lockedLeaseTime;
	}

	public void setLockedLeaseTime(@Nullable Duration lockedLeaseTime) {
		this.lockedLeaseTime = lockedLeaseTime;
	}

	public @Nullable Duration getFencedLeaseTime() {
		return this.fencedLeaseTime;
	}

	public void setFencedLeaseTime(@Nullable Duration fencedLeaseTime) {
		this.fencedLeaseTime = fencedLeaseTime;
	}

	public List<URI> getPeers() {
		return this.peers;
	}

	public void setPeers(List<URI> peers) {
		this.peers = peers;
	}

	public @Nullable Long getParentPid() {
		return this.parentPid;
	}

	public void setParentPid(@Nullable Long parentPid) {
		this.parentPid = parentPid;
	}

}

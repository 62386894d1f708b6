package io.github.distlock.sample.race;

/**
 * A race could not be run or finished: an instance could not be reached, or buyers were
 * not answered in time.
 */
public class RaceFailedException extends RuntimeException {

	public RaceFailedException(String message) {
		super(message);
	}

	public RaceFailedException(String message, Throwable cause) {
		super(message, cause);
	}

}

package io.github.distlock.sample.shop;

/**
 * What happens between reading the stock and writing it back. The shop pauses there for
 * {@code sample.race-window}; tests replace it to stop a buyer at exactly that point.
 */
@FunctionalInterface
public interface RaceWindow {

	void between(String productName);

}
